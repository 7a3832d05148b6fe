import Dispatch

/// How far the BlueZ transport has come towards serving links, for the daemon's `STATUS=` line.
///
/// Published by the D-Bus loop thread whenever it changes (``BlueZTransport/state``). A retry time
/// is on the transport's clock (``BlueZClock/now()``, seconds of system uptime), so the countdown in
/// ``summary(at:)`` is computed by the reader, at the moment it reads.
public enum BlueZTransportState: Equatable, Sendable {
    /// The system bus is not connected yet; `retryAt` is the next attempt after a failed one.
    case connectingToBus(retryAt: Double?)
    /// Connected to the bus, but `org.bluez` has no owner: waiting for `NameOwnerChanged`, and
    /// looking again at `retryAt` in case the signal is missed.
    case waitingForBluetoothd(retryAt: Double?)
    /// bluetoothd runs but has no such adapter (named): waiting for `InterfacesAdded`, and
    /// reading its objects again at `retryAt`.
    case waitingForAdapter(String, retryAt: Double?)
    /// The adapter (named) is off; `retryAt` is the next power-on attempt after a refused one.
    case adapterPoweredOff(String, retryAt: Double?)
    /// The adapter (named) is on and the GATT application is not registered yet.
    case registering(String)
    /// Registered on the adapter (named): advertising, discovering and dialling.
    case running(String)
    /// The transport was stopped.
    case stopped

    /// Whether the transport can carry links in this state.
    public var isRunning: Bool {
        if case .running = self { return true }
        return false
    }

    /// When the transport will next try again by itself, if it is waiting on a retry.
    public var retryAt: Double? {
        switch self {
        case .connectingToBus(let at), .waitingForBluetoothd(let at), .waitingForAdapter(_, let at),
             .adapterPoweredOff(_, let at):
            at
        case .registering, .running, .stopped:
            nil
        }
    }

    /// The same step without its retry time: what the state log line follows (a new retry time
    /// alone is no new state to log).
    public var step: BlueZTransportState {
        switch self {
        case .connectingToBus: .connectingToBus(retryAt: nil)
        case .waitingForBluetoothd: .waitingForBluetoothd(retryAt: nil)
        case .waitingForAdapter(let adapter, _): .waitingForAdapter(adapter, retryAt: nil)
        case .adapterPoweredOff(let adapter, _): .adapterPoweredOff(adapter, retryAt: nil)
        case .registering, .running, .stopped: self
        }
    }

    /// One line for an operator, with the seconds left until the next retry as of `now`
    /// (same clock as ``retryAt``): "waiting for bluetoothd (retry in 4 s)".
    public func summary(at now: Double) -> String {
        let what: String = switch self {
        case .connectingToBus(nil): "connecting to the system bus"
        case .connectingToBus: "system bus unavailable"
        case .waitingForBluetoothd: "waiting for bluetoothd"
        case .waitingForAdapter(let adapter, _): "waiting for adapter \(adapter)"
        case .adapterPoweredOff(let adapter, _): "adapter \(adapter) powered off"
        case .registering(let adapter): "registering with bluetoothd on \(adapter)"
        case .running(let adapter): "running on \(adapter)"
        case .stopped: "stopped"
        }
        guard let retryAt else { return what }
        return what + " (" + Self.countdown(retryAt - now) + ")"
    }

    /// "retry in 4 s" (whole seconds, rounded up), or "retrying" when the time has come.
    static func countdown(_ seconds: Double) -> String {
        guard seconds > 0, seconds.isFinite else { return "retrying" }
        return "retry in \(Int(min(seconds, 86_400).rounded(.up))) s"
    }
}

/// The clock of every time the BlueZ transport keeps: seconds of system uptime (monotonic).
public enum BlueZClock {
    /// Now, in seconds since boot.
    public static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
