/// What the control socket answered to `status`.
public enum DaemonFact: Equatable, Sendable {
    /// No connection; `errno` (ENOENT: no socket; EACCES: not in the control group; ECONNREFUSED: nobody listens).
    case cannotConnect(errno: Int32, reason: String)
    /// Connected, but no valid reply in time, or a refusal; the reason.
    case noReply(String)
    /// The status the daemon reported.
    case answered(DaemonStatus)
}

/// The parts of the daemon's `status` reply the checks read.
public struct DaemonStatus: Equatable, Sendable {
    /// `starting`, `running`, `stopping`.
    public var state: String
    /// The transport's own state (BlueZ: `running`, `waiting for bluetoothd ...`), when it says.
    public var transportState: String?
    /// The daemon's version.
    public var version: String
    /// Every status field whose name mentions the clock (a mesh-time estimate), as name and value
    /// text, in the daemon's order; empty when the daemon reports none.
    public var clockFields: [ClockField]

    /// Creates the status.
    public init(state: String, transportState: String? = nil, version: String, clockFields: [ClockField] = []) {
        self.state = state
        self.transportState = transportState
        self.version = version
        self.clockFields = clockFields
    }
}

/// One clock-related field of the daemon's status, as text.
public struct ClockField: Equatable, Sendable {
    /// The field's name (a dotted path for nested fields).
    public var name: String
    /// Its value as text.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
