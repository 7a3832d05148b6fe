import MeshProtocol

/// Nodes beyond the neighbours, learned from join notices and signed messages.
///
/// Bounded: at most `capacity` entries, each forgotten `lifetime` after it was last heard;
/// when full, the entry heard longest ago goes.
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
    }

    /// The most entries held.
    public let capacity: Int
    /// How long an entry lives after it was last heard.
    public let lifetime: Duration
    /// Entries by node ID.
    public private(set) var entries: [NodeID: Entry] = [:]

    /// Creates an empty table.
    public init(capacity: Int, lifetime: Duration) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// Records or refreshes `node`.
    public mutating func record(_ node: NodeID, entry: Entry) {
        if entries[node] == nil, entries.count >= capacity,
            let oldest = entries.min(by: { $0.value.lastHeard < $1.value.lastHeard })?.key
        {
            entries[oldest] = nil
        }
        var merged = entry
        if merged.profile == nil { merged.profile = entries[node]?.profile }
        entries[node] = merged
    }

    /// Drops entries not heard within the lifetime.
    public mutating func expire(now: Duration) {
        entries = entries.filter { now - $0.value.lastHeard < lifetime }
    }
}
