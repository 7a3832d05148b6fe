/// Decides when the adapter must be powered off and on so that its address changes together with the
/// advertised name (docs/BLUEZ.md, "Addresses"). A pure value: the session reports what happened to the
/// adapter and asks before it advertises, scans or dials under a name.
///
/// With kernel privacy on (bluetoothd's `Privacy`), Linux takes a new resolvable private address at
/// every power-on, and otherwise only when advertising or scanning starts after its own timer (15 min,
/// monotonic) expired: re-registering an advertisement keeps the address. So an address must carry one
/// name only, and the only change a process without capabilities can force through BlueZ's D-Bus API
/// is a power cycle (`Adapter1.Powered`), which also ends every connection made under the old name.
public struct AddressRotation: Sendable, Equatable {
    /// What is known of the adapter's current address.
    public enum Address: Sendable, Equatable {
        /// Not known what it carried (the adapter was already on when we found it).
        case unknown
        /// New since the adapter last powered on; it has carried no name yet.
        case fresh
        /// It has carried this name (advertised, scanned or dialled under it).
        case carried(String)
    }

    /// What the session does before using the adapter under a name.
    public enum Decision: Sendable, Equatable {
        /// Go ahead: the address has carried no other name (or rotation is off).
        case proceed
        /// Power the adapter off and on first (all its links drop), then ask again.
        case cycle
        /// The address carried another name, but a cycle was made less than ``minimumInterval`` ago:
        /// go ahead under the old address (counted; a clock stepping to and fro must not cycle the
        /// adapter in a loop).
        case proceedTooSoon
    }

    /// Whether to rotate at all (meshnoded: `[bluez] rotate_address`).
    public let enabled: Bool
    /// The shortest time between two cycles, in seconds.
    public let minimumInterval: Double
    /// What is known of the current address.
    public private(set) var address = Address.unknown
    /// When the last cycle was asked for (session clock), if ever.
    public private(set) var lastCycle: Double?

    /// The default ``minimumInterval``: 60 s.
    public static let defaultMinimumInterval = 60.0

    /// A rotation that is on or off, at most one cycle per `minimumInterval` seconds.
    public init(enabled: Bool, minimumInterval: Double = defaultMinimumInterval) {
        self.enabled = enabled
        self.minimumInterval = minimumInterval
    }

    /// The adapter turned on (by us or anyone): the kernel gave it a new address.
    public mutating func poweredOn() { address = .fresh }

    /// The adapter or bluetoothd went away: when it returns, its address is not known.
    public mutating func forgotten() { address = .unknown }

    /// The cycle could not be made (BlueZ refused to power the adapter off): go on under `name` with
    /// the old address rather than stay off the air.
    public mutating func cycleFailed(name: String) { address = .carried(name) }

    /// Before advertising, scanning or dialling under `name` at `now` (seconds, any monotonic origin).
    /// `.cycle` records the cycle; the session then powers the adapter off and on.
    public mutating func use(name: String, now: Double) -> Decision {
        guard enabled else { return .proceed }
        switch address {
        case .fresh:
            address = .carried(name)
            return .proceed
        case .carried(let carried) where carried == name:
            return .proceed
        case .unknown, .carried:
            if let last = lastCycle, now - last < minimumInterval {
                address = .carried(name)
                return .proceedTooSoon
            }
            lastCycle = now
            return .cycle
        }
    }
}
