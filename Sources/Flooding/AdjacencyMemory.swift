import MeshProtocol

/// Which nodes were seen linked to which, learned from the routes of envelopes passing by.
///
/// Consecutive route entries were neighbours when the envelope passed (the first handed it to
/// the second), so every relayed envelope shows part of the mesh around us for free. Managed
/// flooding uses it to skip targets a neighbour already reached. Bounded: at most `capacity`
/// nodes and `perNode` links each (the least recently seen go first); a link not seen again
/// within `lifetime` is forgotten, so a mesh that moves is relearned.
public struct AdjacencyMemory: Sendable {
    private struct Links: Sendable {
        var lastSeen: [NodeID: Duration] = [:]
        var touched: Duration
    }

    /// The most nodes remembered.
    public let capacity: Int
    /// The most links remembered per node.
    public let perNode: Int
    /// How long a link is believed without being seen again.
    public let lifetime: Duration
    private var nodes: [NodeID: Links] = [:]

    /// Creates an empty memory.
    public init(capacity: Int = 512, perNode: Int = 32, lifetime: Duration = .seconds(120)) {
        self.capacity = max(1, capacity)
        self.perNode = max(1, perNode)
        self.lifetime = lifetime
    }

    /// Nodes remembered now.
    public var count: Int { nodes.count }

    /// Learns every link a route shows (both directions).
    public mutating func learn(route: [NodeID], now: Duration) {
        for (a, b) in zip(route, route.dropFirst()) where a != b {
            link(a, b, now: now)
            link(b, a, now: now)
        }
    }

    /// True when `a` and `b` were seen linked within the lifetime.
    public func linked(_ a: NodeID, _ b: NodeID, now: Duration) -> Bool {
        guard let seen = nodes[a]?.lastSeen[b] else { return false }
        return now - seen < lifetime
    }

    private mutating func link(_ a: NodeID, _ b: NodeID, now: Duration) {
        if nodes[a] == nil, nodes.count >= capacity, let oldest = nodes.min(by: { $0.value.touched < $1.value.touched })?.key {
            nodes[oldest] = nil
        }
        var entry = nodes[a] ?? Links(touched: now)
        entry.touched = now
        if entry.lastSeen[b] == nil, entry.lastSeen.count >= perNode,
            let oldest = entry.lastSeen.min(by: { $0.value < $1.value })?.key
        {
            entry.lastSeen[oldest] = nil
        }
        entry.lastSeen[b] = now
        nodes[a] = entry
    }
}
