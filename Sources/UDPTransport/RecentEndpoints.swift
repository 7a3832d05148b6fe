import MeshLink

/// Addresses remembered for a while, at most `capacity` of them (the least recently noted go
/// first); pinned addresses (configured neighbours) are always remembered.
struct RecentEndpoints: Sendable {
    let capacity: Int
    let lifetime: Duration
    private var notedAt: [UDPEndpoint: Duration] = [:]
    private var pinned: Set<UDPEndpoint> = []

    /// Creates an empty memory.
    init(capacity: Int, lifetime: Duration) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Remembers `endpoint` for good.
    mutating func pin(_ endpoint: UDPEndpoint) { pinned.insert(endpoint) }

    /// Remembers `endpoint` as of `now`.
    mutating func note(_ endpoint: UDPEndpoint, now: Duration) {
        notedAt[endpoint] = now
        guard notedAt.count > capacity, let oldest = notedAt.min(by: { $0.value < $1.value })?.key else { return }
        notedAt[oldest] = nil
    }

    /// True when `endpoint` is pinned or was noted within the lifetime before `now`.
    func contains(_ endpoint: UDPEndpoint, now: Duration) -> Bool {
        if pinned.contains(endpoint) { return true }
        guard let noted = notedAt[endpoint] else { return false }
        return now - noted < lifetime
    }
}
