import MeshLink

/// Which client without a GATT server holds which notify slot. A pure value; time is passed in.
///
/// BlueZ 5.66 sends a characteristic's notification to every device subscribed to it and never says
/// which device subscribed (`StartNotify` carries no device). A node therefore exports one notify
/// characteristic per client slot. A client claims a slot by writing to that slot's characteristic
/// (`WriteValue` names the device): the slot is bound to the device that wrote first, and frames for
/// that device are notified on its slot only. docs/BLUEZ.md, "Client slots".
public struct ClientSlots: Equatable, Sendable {
    /// One bound slot.
    public struct Holder: Equatable, Sendable {
        /// The BlueZ device object of the client.
        public var device: String
        /// When the claim was made.
        public var claimedAt: Double
        /// Whether the device has a link (its first frame arrived); an unlinked claim expires.
        public var linked: Bool
    }

    /// Slots a node exports by default.
    public static let defaultCount = ClientSlotLimits.defaultCount
    /// Most slots a node may export.
    public static let maxCount = ClientSlotLimits.maxCount
    /// Seconds an unlinked claim is kept (the client claimed, but sent no frame).
    public static let claimTimeout = 15.0

    /// Number of slots (0 exports none: the single message characteristic only).
    public let count: Int
    /// Bound slots by index.
    public private(set) var holders: [Int: Holder] = [:]

    /// Creates `count` free slots (clamped to 0...``maxCount``).
    public init(count: Int) { self.count = min(max(count, 0), Self.maxCount) }

    /// The slot a device holds, if any.
    public func slot(of device: String) -> Int? { holders.first { $0.value.device == device }?.key }

    /// Slots by device, for the send rule.
    public var byDevice: [String: Int] { Dictionary(holders.map { ($0.value.device, $0.key) }) { a, _ in a } }

    /// Number of free slots.
    public var free: Int { count - holders.count }

    /// A device wrote to slot `slot` at `now`: binds it when free, after dropping unlinked claims older
    /// than ``claimTimeout``. Returns the outcome and how many stale claims were dropped.
    public mutating func claim(slot: Int, device: String, now: Double) -> (SlotClaim, expired: Int) {
        let stale = holders.filter { !$0.value.linked && now - $0.value.claimedAt > Self.claimTimeout }.map(\.key)
        for index in stale { holders[index] = nil }
        guard (0..<count).contains(slot) else { return (.noSuchSlot, stale.count) }
        if let holder = holders[slot] {
            if holder.device == device { return (.held, stale.count) }
            return (.taken(exhausted: holders.count == count), stale.count)
        }
        if let other = self.slot(of: device) { return (.holdsAnother(other), stale.count) }
        holders[slot] = Holder(device: device, claimedAt: now, linked: false)
        return (.granted, stale.count)
    }

    /// The device's link came up: its claim no longer expires.
    public mutating func linked(device: String) {
        guard let index = slot(of: device) else { return }
        holders[index]?.linked = true
    }

    /// Frees the device's slot (its link closed or it disconnected); returns the slot freed.
    @discardableResult
    public mutating func release(device: String) -> Int? {
        guard let index = slot(of: device) else { return nil }
        holders[index] = nil
        return index
    }

    /// Frees every slot held by a device under `prefix` (an adapter path); returns how many.
    @discardableResult
    public mutating func releaseAll(under prefix: String) -> Int {
        let doomed = holders.filter { $0.value.device.hasPrefix(prefix + "/") }.map(\.key)
        for index in doomed { holders[index] = nil }
        return doomed.count
    }

    /// The UUID of slot `slot`: the base UUID with `slot` added to its first group
    /// (`8f2c0100-…`, `8f2c0101-…`, …); nil when the first group would overflow.
    public static func uuid(base: String, slot: Int) -> String? {
        guard let dash = base.firstIndex(of: "-"), let first = UInt32(base[..<dash], radix: 16),
              slot >= 0, UInt64(first) + UInt64(slot) <= UInt64(UInt32.max) else { return nil }
        let hex = String(first + UInt32(slot), radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex + base[dash...].lowercased()
    }
}
