/// Counters of envelopes held for neighbours without a ready link.
public struct HoldCounters: Equatable, Sendable {
    /// Envelopes put on hold for a neighbour.
    public var held: UInt64 = 0
    /// Held envelopes sent when a link to their neighbour was ready again.
    public var sentLate: UInt64 = 0
    /// Held envelopes dropped for age, or because their neighbour departed.
    public var expired: UInt64 = 0
    /// Held envelopes pushed out by a newer one when a count or byte limit was reached.
    public var evicted: UInt64 = 0
    /// Envelopes sent on a link shortly before it went down, sent or held again for their neighbour.
    public var resent: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
