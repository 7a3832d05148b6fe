import MeshProtocol

/// The fewest hops each recently accepted message arrived with, so that a later copy that
/// came by a shorter path can be relayed again (docs/PROTOCOL.md Part C, "A shorter path later").
///
/// When a link is down, a message can reach a node first by a detour with more hops; the
/// copy held for the direct path arrives after the link is back and would be dropped as seen,
/// although it could still travel further within the hop limit. Bounded by count (oldest
/// first out) and by age; a pure value with time passed in.
public struct ShorterPathMemory: Sendable {
    private struct Entry: Sendable {
        var hops: UInt8
        let expiresAt: Duration
    }

    /// The most message IDs remembered; 0 turns relaying by shorter paths off.
    public let capacity: Int
    /// How long after acceptance a shorter copy is still relayed again.
    public let lifetime: Duration
    private var entries: [SeenCache.Key: Entry] = [:]
    private var order: [(key: SeenCache.Key, expiresAt: Duration)] = []
    private var head = 0

    /// Creates an empty memory.
    public init(capacity: Int = 4096, lifetime: Duration = .seconds(60)) {
        self.capacity = max(0, capacity)
        self.lifetime = lifetime
    }

    /// How many message IDs are remembered.
    public var size: Int { entries.count }

    /// True when a copy of `id` with `hops` came by a shorter path than every copy accepted so far.
    public func isShorter(_ id: MessageID, hops: UInt8, now: Duration) -> Bool {
        guard let entry = entries[SeenCache.Key(id)], entry.expiresAt > now else { return false }
        return hops < entry.hops
    }

    /// Records that a copy of `id` with `hops` was accepted.
    public mutating func record(_ id: MessageID, hops: UInt8, now: Duration) {
        expire(now: now)
        let key = SeenCache.Key(id)
        if let entry = entries[key] {
            entries[key]?.hops = min(entry.hops, hops)
            return
        }
        // Nothing arrives by a shorter path than the origin's own send.
        guard hops > 0, capacity > 0 else { return }
        if entries.count >= capacity { removeOldest() }
        let expiresAt = now + lifetime
        entries[key] = Entry(hops: hops, expiresAt: expiresAt)
        order.append((key, expiresAt))
    }

    private mutating func expire(now: Duration) {
        while head < order.count, order[head].expiresAt <= now { removeOldest() }
    }

    private mutating func removeOldest() {
        guard head < order.count else { return }
        let oldest = order[head]
        if entries[oldest.key]?.expiresAt == oldest.expiresAt { entries[oldest.key] = nil }
        head += 1
        if head >= 1024, head * 2 >= order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
