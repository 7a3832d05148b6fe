/// Counters of link admission (`relayctl stats`, group `admission`).
public struct AdmissionCounters: Equatable, Sendable {
    /// Links admitted to their key exchange.
    public var admitted: UInt64 = 0
    /// Of those, links from an address that was a keyed neighbour's lately.
    public var admittedReturning: UInt64 = 0
    /// Unkeyed links closed because the unkeyed budget was full (the oldest stranger's went).
    public var evictedOldest: UInt64 = 0
    /// Unkeyed links closed because their transport's own unkeyed budget was full (its oldest
    /// stranger's went).
    public var evictedTransportFull: UInt64 = 0
    /// Unkeyed links closed because their address had too many unkeyed links (its oldest went).
    public var evictedSameAddress: UInt64 = 0
    /// Strangers' new links closed at once: the budget was full of returning neighbours' links and
    /// of strangers' handshakes on the same transport still within the grace.
    public var refusedFull: UInt64 = 0
    /// Links from strangers closed because they had no link keys by the key deadline.
    public var keyDeadlineCloses: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
