import DBusKit
import Glibc

/// Waiting for bluetoothd and the adapter: signals bring them back at once; a recheck with
/// backoff (1 s … 30 s) looks again in case a signal is missed. And the state it all amounts to,
/// published for other threads.
extension BlueZSession {
    /// What a recheck looks for; one is armed at a time (each step waits on the one before).
    enum Recheck: String {
        /// `GetNameOwner("org.bluez")` again.
        case bluetoothd
        /// bluetoothd's objects again, for the adapter.
        case adapter
        /// Powering the adapter on again after a refusal.
        case power
    }

    /// The backoff of rechecks: 1 s, 2 s, 4 s … 30 s, ±20 %, never a longer penalty.
    static let recheckPolicy = ReconnectPolicy(initialDelay: 1, maxDelay: 30, penaltyAfterFailures: .max)

    /// The facts behind ``BlueZTransportState``, as they are now.
    var readiness: BlueZReadiness {
        BlueZReadiness(
            adapter: config.adapter, stopping: stopping, busConnected: connection != nil,
            busRetryAt: connection == nil ? retries.entries["bus"]?.notBefore : nil,
            bluetoothdPresent: bluezOwner != nil, objectsLoaded: objectsLoaded, adapterPresent: cache.adapter(adapterPath) != nil,
            adapterPowered: cache.isPowered(adapterPath), needsApplication: config.gattServer,
            applicationRegistered: appState == .registered, recheckAt: recheck?.at)
    }

    /// Publishes the state for ``BlueZTransport/state`` when it changed, and logs a change of step
    /// (not a new retry time alone: the recheck lines say those, at debug after the first).
    func publishState() {
        let state = readiness.state
        guard state != publishedState else { return }
        let newStep = state.step != publishedState?.step
        publishedState = state
        shared.withLock { $0.state = state }
        if newStep { log(.info, "state: " + state.summary(at: now())) }
    }

    /// Asks the bus who owns `org.bluez`; an owner brings bluetoothd up, anything else arms a recheck.
    func lookUpBluetoothd() {
        guard connection != nil, bluezOwner == nil, !stopping else { return }
        call("org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
             member: "GetNameOwner", [.string(BlueZ.bus)]) { [self] result in
            guard bluezOwner == nil else { return }
            switch NameOwnerLookup(result) {
            case .owner(let owner):
                bluezAppeared(owner: owner)
            case .noOwner:
                let delay = armRecheck(.bluetoothd) { [self] in lookUpBluetoothd() }
                log(quietRecheck(.bluetoothd) ? .debug : .warning,
                    "bluetoothd is not on the bus; waiting for it (looking again in \(Self.seconds(delay)))")
            case .failed(let error):
                count { $0.dbus.record(error) }
                let delay = armRecheck(.bluetoothd) { [self] in lookUpBluetoothd() }
                log(.warning, "GetNameOwner(org.bluez) failed (\(error.summary)); asking again in \(Self.seconds(delay))")
            }
        }
    }

    /// Arms the recheck for `what` (replacing any other) with the next backoff delay; returns it.
    @discardableResult
    func armRecheck(_ what: Recheck, action: @escaping () -> Void) -> Double {
        disarmRecheck()
        let delay = waits.recordFailure(what.rawValue, now: now(), unit: Double.random(in: 0..<1))
        let timer = loop.after(delay) { [self] in
            recheck = nil
            action()
            publishState()
        }
        recheck = (what, timer, now() + delay)
        return delay
    }

    /// Cancels the armed recheck, if any.
    func disarmRecheck() {
        guard let armed = recheck else { return }
        loop.cancelTimer(armed.timer)
        recheck = nil
    }

    /// `what` is there now: its backoff starts again from 1 s, and its recheck is cancelled.
    func found(_ what: Recheck) {
        waits.recordSuccess(what.rawValue)
        if recheck?.what == what { disarmRecheck() }
    }

    /// Whether a recheck for `what` already failed more than once: repeats are logged at debug.
    func quietRecheck(_ what: Recheck) -> Bool { (waits.entries[what.rawValue]?.failures ?? 0) > 1 }

    /// "4.0 s".
    static func seconds(_ delay: Double) -> String { fixed(delay, 1) + " s" }
}
