import MeshProtocol

/// The key requests this gateway published to the MQTT bridge, with their targets: only an answer
/// to one of them is let in from the broker (docs/PROTOCOL.md F4, "Key requests and answers").
///
/// At most `capacity` requests, each for `lifetime`; the oldest recorded goes first.
public struct PublishedRequests: Sendable {
    /// The most requests remembered.
    public let capacity: Int
    /// How long one is remembered.
    public let lifetime: Duration
    private var entries: [KeyRequestKey: (target: NodeID, at: Duration)] = [:]
    private var order: [KeyRequestKey] = []

    /// Creates an empty memory.
    public init(capacity: Int, lifetime: Duration) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// Requests remembered.
    public var count: Int { entries.count }

    /// Remembers that `request`, about `target`, went to the broker at `now` (the first time only).
    public mutating func record(_ request: KeyRequestKey, target: NodeID, now: Duration) {
        guard entries[request] == nil else { return }
        while order.count >= capacity, let oldest = order.first {
            order.removeFirst()
            entries[oldest] = nil
        }
        entries[request] = (target, now)
        order.append(request)
    }

    /// True when `request` about `target` went to the broker within the lifetime.
    public func contains(_ request: KeyRequestKey, target: NodeID, now: Duration) -> Bool {
        guard let entry = entries[request], now - entry.at < lifetime else { return false }
        return entry.target == target
    }
}
