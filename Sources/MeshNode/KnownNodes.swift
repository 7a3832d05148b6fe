import MeshProtocol

/// Nodes beyond the neighbours, learned from join notices and signed messages.
///
/// Bounded twice: at most `capacity` entries, and at most `perNeighbour` of them introduced
/// by any one neighbour (the neighbour a node's join notice or message last came from), so a
/// neighbour minting identities pushes out only its own introductions. Each entry is
/// forgotten `lifetime` after it was last heard. When full, the entry heard longest ago of
/// the neighbour that introduced the most goes.
public struct KnownNodes: Sendable {
    /// One remote node.
    public struct Entry: Equatable, Sendable {
        /// Its profile when a join notice carried one; keys-only entries have a nil profile.
        public var profile: Profile?
        /// Its key-agreement public key (X9.63), for sealing direct messages to it.
        public var agreementKey: [UInt8]
        /// Its signing public key (X9.63).
        public var signingKey: [UInt8]
        /// Hops between it and us when last heard.
        public var hops: UInt8
        /// When it was last heard.
        public var lastHeard: Duration
        /// The neighbour it was last heard through.
        public var via: NodeID?
    }

    /// The most entries held.
    public let capacity: Int
    /// The most entries introduced by one neighbour.
    public let perNeighbour: Int
    /// How long an entry lives after it was last heard.
    public let lifetime: Duration
    /// Entries by node ID.
    public private(set) var entries: [NodeID: Entry] = [:]
    private var introduced: [NodeID: Int] = [:]
    /// Entries pushed out before their lifetime because a bound was reached.
    public private(set) var evictions: UInt64 = 0

    /// Creates an empty table.
    public init(capacity: Int, perNeighbour: Int? = nil, lifetime: Duration) {
        self.capacity = max(1, capacity)
        self.perNeighbour = min(self.capacity, max(1, perNeighbour ?? capacity))
        self.lifetime = lifetime
    }

    /// Records or refreshes `node`, heard through neighbour `via`.
    public mutating func record(_ node: NodeID, entry: Entry, via neighbour: NodeID? = nil) {
        var merged = entry
        merged.via = neighbour
        if merged.profile == nil { merged.profile = entries[node]?.profile }
        if let previous = entries[node] { uncount(previous.via) }
        entries[node] = nil
        if let neighbour, introduced[neighbour, default: 0] >= perNeighbour {
            evictOldest(introducedBy: neighbour)
        } else if entries.count >= capacity {
            evictOldest(introducedBy: introduced.max { $0.value < $1.value }?.key)
        }
        entries[node] = merged
        if let neighbour { introduced[neighbour, default: 0] += 1 }
    }

    /// Drops entries not heard within the lifetime.
    public mutating func expire(now: Duration) {
        for (node, entry) in entries where now - entry.lastHeard >= lifetime {
            entries[node] = nil
            uncount(entry.via)
        }
    }

    /// Removes the entry heard longest ago among those `neighbour` introduced (any entry when
    /// nil, or when it introduced none).
    private mutating func evictOldest(introducedBy neighbour: NodeID?) {
        let candidates = neighbour.map { owner in entries.filter { $0.value.via == owner } } ?? entries
        let pool = candidates.isEmpty ? entries : candidates
        guard let oldest = pool.min(by: { $0.value.lastHeard < $1.value.lastHeard }) else { return }
        entries[oldest.key] = nil
        uncount(oldest.value.via)
        evictions += 1
    }

    private mutating func uncount(_ neighbour: NodeID?) {
        guard let neighbour, let count = introduced[neighbour] else { return }
        introduced[neighbour] = count > 1 ? count - 1 : nil
    }
}
