import MeshProtocol

/// Which nodes each neighbour says it was handed messages by, learned from the copies it sends us.
///
/// A relay appends its own ID to the route of every copy it passes on (docs/PROTOCOL.md Part C,
/// step 9), so on a copy that neighbour N hands us the entry before N names the node N took
/// that copy from. That is N's own word about one of N's own links, the only link claim a
/// neighbour can make that harms nobody but itself if false: managed flooding believes
/// "P is linked to T" only when T said so, and uses it only to skip T. Every other route
/// entry is the word of whoever relayed before, so it teaches nothing.
///
/// Bounded: at most `capacity` claimants (the least recently heard go first) and `perClaimant`
/// claimed links each (the least recently claimed go first); a claim not renewed within
/// `lifetime` is forgotten, so a mesh that moves is relearned. Claimants are the neighbours
/// whose copies opened under a link seal, so their number is the link budget's.
public struct LinkClaims: Sendable {
    private struct Claims: Sendable {
        var lastClaimed: [NodeID: Duration] = [:]
        var touched: Duration
    }

    /// The most claimants remembered.
    public let capacity: Int
    /// The most links remembered per claimant.
    public let perClaimant: Int
    /// How long a claim is believed without being made again.
    public let lifetime: Duration
    private var claimants: [NodeID: Claims] = [:]

    /// Creates an empty memory.
    public init(capacity: Int = 512, perClaimant: Int = 32, lifetime: Duration = .seconds(120)) {
        self.capacity = max(1, capacity)
        self.perClaimant = max(1, perClaimant)
        self.lifetime = lifetime
    }

    /// Claimants remembered now.
    public var count: Int { claimants.count }

    /// Records what a copy handed over by `neighbour` claims: that the route entry before the
    /// neighbour's own (the last) handed it the copy. Routes of one entry (the origin's own
    /// send) and routes that do not end with the neighbour claim nothing.
    public mutating func learn(route: [NodeID], from neighbour: NodeID, now: Duration) {
        guard route.count >= 2, route[route.count - 1] == neighbour else { return }
        let predecessor = route[route.count - 2]
        guard predecessor != neighbour else { return }
        record(neighbour, linkedTo: predecessor, now: now)
    }

    /// True when `claimant` said, within the lifetime, that `node` handed it a copy.
    public func claims(_ claimant: NodeID, linkedTo node: NodeID, now: Duration) -> Bool {
        guard let claimed = claimants[claimant]?.lastClaimed[node] else { return false }
        return now - claimed < lifetime
    }

    private mutating func record(_ claimant: NodeID, linkedTo node: NodeID, now: Duration) {
        if claimants[claimant] == nil, claimants.count >= capacity,
            let oldest = claimants.min(by: { $0.value.touched < $1.value.touched })?.key
        {
            claimants[oldest] = nil
        }
        var entry = claimants[claimant] ?? Claims(touched: now)
        entry.touched = now
        if entry.lastClaimed[node] == nil, entry.lastClaimed.count >= perClaimant,
            let oldest = entry.lastClaimed.min(by: { $0.value < $1.value })?.key
        {
            entry.lastClaimed[oldest] = nil
        }
        entry.lastClaimed[node] = now
        claimants[claimant] = entry
    }
}
