/// The ATT MTU of each device's current LE connection, from evidence seen on that connection only.
/// A pure value; the session feeds it BlueZ's signals and the peer's writes.
///
/// BlueZ keeps a peer's GATT objects (and so a characteristic's `MTU` property) across connections
/// when it caches the peer's database: after an adapter power cycle the mirror can still say 517
/// while the new connection runs at 23 until an MTU exchange on it. So a connection starts at 23
/// (`Connected` became true) and is raised only by what belongs to it: a `PropertiesChanged` of a
/// characteristic's `MTU`, a characteristic object added while connected, or the `mtu` option of a
/// write the peer made to us. See docs/BLUEZ.md, "ATT MTU per connection".
public struct ConnectionMTU: Equatable, Sendable {
    /// The ATT MTU every LE connection starts with (Core spec, Vol 3, Part F, 3.2.8).
    public static let initial = 23
    /// Most connections tracked; evidence for further devices is ignored (and reported by the caller).
    public let capacity: Int
    /// Per device path: the MTU known for its current connection.
    public private(set) var connections: [String: Int] = [:]

    /// Creates an empty book.
    public init(capacity: Int = 256) { self.capacity = max(1, capacity) }

    /// `Connected` became true: a new connection at the initial MTU. False when the book is full.
    @discardableResult
    public mutating func connected(_ device: String) -> Bool {
        guard connections[device] != nil || connections.count < capacity else { return false }
        connections[device] = Self.initial
        return true
    }

    /// `Connected` became false, or the device went away: what was known ends with the connection.
    public mutating func disconnected(_ device: String) { connections[device] = nil }

    /// An MTU seen on the device's current connection; returns the MTU now in force when it changed.
    /// Ignored (nil) for a device whose connection was not seen starting: that value may be stale.
    public mutating func exchanged(_ device: String, mtu: Int) -> Int? {
        guard let old = connections[device] else { return nil }
        let new = min(max(mtu, Self.initial), 517)
        guard new != old else { return nil }
        connections[device] = new
        return new
    }

    /// The MTU to use for a device's link. `cached` is the characteristic's `MTU` property in the
    /// mirror: used only for a connection that started before we watched (a restart of ours).
    public func mtu(_ device: String, cached: Int?) -> Int {
        connections[device] ?? cached.map { min(max($0, Self.initial), 517) } ?? Self.initial
    }

    /// Whether the device's current connection was seen starting.
    public func tracks(_ device: String) -> Bool { connections[device] != nil }
}
