import MeshProtocol

/// For each key request this node relayed, where its first copy came from (a neighbour or the
/// MQTT bridge): an answer to it goes back that way only (docs/PROTOCOL.md H3, "Answers go back
/// the way the request came", and F3).
///
/// At most `capacity` requests, each for `lifetime`; the oldest recorded goes first.
public struct ReversePaths: Sendable {
    /// The most requests remembered.
    public let capacity: Int
    /// How long one is remembered.
    public let lifetime: Duration
    private var entries: [KeyRequestKey: (source: RequestSource, at: Duration)] = [:]
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
        record(request, from: .neighbour(neighbour), now: now)
    }

    /// Remembers that `request` came in from `source` at `now` (the first copy only).
    public mutating func record(_ request: KeyRequestKey, from source: RequestSource, now: Duration) {
        guard entries[request] == nil else { return }
        while order.count >= capacity, let oldest = order.first {
            order.removeFirst()
            entries[oldest] = nil
        }
        entries[request] = (source, now)
        order.append(request)
    }

    /// The neighbour `request` came from, if it was relayed here within the lifetime from one.
    public func neighbour(for request: KeyRequestKey, now: Duration) -> NodeID? {
        guard case .neighbour(let neighbour) = source(for: request, now: now) else { return nil }
        return neighbour
    }

    /// Where `request` came from, if it was relayed here within the lifetime.
    public func source(for request: KeyRequestKey, now: Duration) -> RequestSource? {
        guard let entry = entries[request], now - entry.at < lifetime else { return nil }
        return entry.source
    }
}
