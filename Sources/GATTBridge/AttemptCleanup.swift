/// What to undo after a central connection attempt failed. A pure decision.
///
/// BlueZ keeps one LE connection per pair of addresses, and both ends use it: while our attempt
/// was resolving, the peer may have resolved our database over the same connection and opened its
/// own link on it. `Device1.Disconnect` (and `Adapter1.RemoveDevice`, which disconnects first) would
/// tear that link down from under the peer, so a connection that exists is never cut here; one that
/// never becomes a link on either side is dropped later by the stale-connection reaper.
public struct AttemptCleanup: Equatable, Sendable {
    /// Call `Device1.Disconnect`: cancels a Connect that bluetoothd still has pending.
    public var disconnect: Bool
    /// Call `Adapter1.RemoveDevice` (after the disconnect, if any): forgets bluetoothd's device object,
    /// its cached GATT database and connection state. Only done when the device is not connected.
    public var removeDevice: Bool

    /// Consecutive failures on a device after which its bluetoothd object is removed.
    public static let removeAfterFailures = 2

    /// Nothing to undo.
    public static let none = AttemptCleanup(disconnect: false, removeDevice: false)

    /// Creates a decision.
    public init(disconnect: Bool, removeDevice: Bool) {
        self.disconnect = disconnect
        self.removeDevice = removeDevice
    }

    /// The clean-up after an attempt failed in `stage`; `connected` is the device's `Connected` property
    /// now, `linked` whether the device has a link (either role), `failures` the consecutive failures
    /// counted so far including this one.
    ///
    /// `servicesTimedOut`: the connection came up but its services did not resolve within
    /// ``CharacteristicLookup/servicesWait``. Such a connection carries nothing for either side (a peer
    /// using it would have resolved us and written, giving a link), so it is disconnected.
    public static func after(stage: AttemptStage, connected: Bool, linked: Bool, failures: Int,
                             servicesTimedOut: Bool = false) -> AttemptCleanup {
        guard !linked else { return .none }
        if servicesTimedOut, connected { return AttemptCleanup(disconnect: true, removeDevice: failures >= removeAfterFailures) }
        guard !connected else { return .none }
        return AttemptCleanup(disconnect: stage == .connecting, removeDevice: failures >= removeAfterFailures)
    }

    /// Whether the device object may still be removed when the disconnect has been answered: the peer
    /// may have connected meanwhile.
    public static func mayRemove(connected: Bool, linked: Bool) -> Bool { !connected && !linked }
}
