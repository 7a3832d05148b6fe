import MeshProtocol

/// For each key request this node relayed, the neighbour its first copy came from: an answer to
/// it goes back that way only (docs/PROTOCOL.md H3, "Answers go back the way the request came").
///
/// At most `capacity` requests, each for `lifetime`; the oldest recorded goes first.
public struct ReversePaths: Sendable {
    /// The most requests remembered.
    public let capacity: Int
    /// How long one is remembered.
    public let lifetime: Duration
    private var entries: [KeyRequestKey: (neighbour: NodeID, at: Duration)] = [:]
    private var order: [KeyRequestKey] = []

    /// Creates an empty memory.
    public init(capacity: Int, lifetime: Duration) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// Requests remembered.
    public var count: Int { entries.count }

    /// Remembers that `request` came in from `neighbour` at `now` (the first copy only).
    public mutating func record(_ request: KeyRequestKey, from neighbour: NodeID, now: Duration) {
        guard entries[request] == nil else { return }
        while order.count >= capacity, let oldest = order.first {
            order.removeFirst()
            entries[oldest] = nil
        }
        entries[request] = (neighbour, now)
        order.append(request)
    }

    /// The neighbour `request` came from, if it was relayed here within the lifetime.
    public func neighbour(for request: KeyRequestKey, now: Duration) -> NodeID? {
        guard let entry = entries[request], now - entry.at < lifetime else { return nil }
        return entry.neighbour
    }
}
