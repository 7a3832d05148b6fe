/// Keys (addresses or node IDs) of keyed neighbours, remembered for a while, at most `capacity`
/// of them: the least recently noted go first.
struct NeighbourMemory<Key: Hashable & Sendable>: Sendable {
    let capacity: Int
    let lifetime: Duration
    private var notedAt: [Key: Duration] = [:]

    init(capacity: Int, lifetime: Duration) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Remembers `key` as of `now`.
    mutating func note(_ key: Key, now: Duration) {
        notedAt[key] = now
        guard notedAt.count > capacity, let oldest = notedAt.min(by: { $0.value < $1.value })?.key else { return }
        notedAt[oldest] = nil
    }

    /// True when `key` was noted within the lifetime before `now`.
    func contains(_ key: Key, now: Duration) -> Bool {
        guard let noted = notedAt[key] else { return false }
        return now - noted < lifetime
    }
}
