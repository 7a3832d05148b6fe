import MeshProtocol

/// Counters for one message kind.
public struct KindCounters: Equatable, Sendable, Codable {
    /// Envelopes received from neighbours (after the link seal opened).
    public var received: UInt64 = 0
    /// Envelopes delivered to this node (shown, or used for keys).
    public var delivered: UInt64 = 0
    /// Copies relayed on to neighbours.
    public var relayed: UInt64 = 0
    /// Copies this node originated and sent.
    public var sent: UInt64 = 0
    /// Copies of an accepted message that came by a shorter path, relayed again, not delivered.
    public var shorterPath: UInt64 = 0
    /// Dropped because the ID was already seen.
    public var droppedSeen: UInt64 = 0
    /// Dropped because the hop limit was spent.
    public var droppedTTL: UInt64 = 0
    /// Dropped because our own ID was on the route.
    public var droppedLooped: UInt64 = 0
    /// Dropped because a signature or key check failed.
    public var droppedUnverifiable: UInt64 = 0
    /// Dropped because it did not decode.
    public var droppedMalformed: UInt64 = 0
    /// Dropped because its signed timestamp was older than the seen cache can vouch for, or too far ahead.
    public var droppedStale: UInt64 = 0
    /// Dropped because its route did not fit the neighbour that sent it (edited; costs that neighbour).
    public var droppedBadRoute: UInt64 = 0
    /// Arrived beyond its neighbour's share: never relayed; delivered only when for us and a
    /// signature check could be spared (else also counted as `droppedVerificationBudget`).
    public var overShare: UInt64 = 0
    /// Dropped unverified because the node's signature-check budget was spent.
    public var droppedVerificationBudget: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}

    /// Counts one drop for `reason`.
    public mutating func countDrop(_ reason: DropReason) {
        switch reason {
        case .seen: droppedSeen += 1
        case .ttlSpent: droppedTTL += 1
        case .looped: droppedLooped += 1
        case .stale: droppedStale += 1
        case .badRoute: droppedBadRoute += 1
        }
    }
}
