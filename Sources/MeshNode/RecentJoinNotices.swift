import MeshProtocol

/// The join notices this node relayed lately, as relayed (hops + 1, our ID on the route), so a
/// neighbour that becomes ready a moment after a newcomer's notice passed still gets it
/// (docs/PROTOCOL.md Part E, "A new neighbour catches up on join notices").
///
/// Bounded by count (oldest out first) and age; a pure value with time passed in.
struct RecentJoinNotices {
    /// The most notices kept.
    static let capacity = 16
    /// How long a notice is kept.
    static let lifetime = Duration.seconds(30)

    private var entries: [(envelope: Envelope, at: Duration)] = []

    /// Notes a relay copy of a join notice accepted at `now`.
    mutating func record(_ envelope: Envelope, now: Duration) {
        entries.removeAll { now - $0.at >= Self.lifetime || $0.envelope.messageID == envelope.messageID }
        if entries.count >= Self.capacity { entries.removeFirst() }
        entries.append((envelope, now))
    }

    /// The notices still young at `now` that `neighbour` has not seen on their way: it is
    /// neither their origin nor on their route. Oldest first.
    func catchUp(for neighbour: NodeID, now: Duration) -> [Envelope] {
        entries.filter { now - $0.at < Self.lifetime && $0.envelope.origin != neighbour && !$0.envelope.route.contains(neighbour) }
            .map(\.envelope)
    }
}
