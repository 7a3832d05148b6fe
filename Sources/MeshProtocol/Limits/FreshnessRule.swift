/// Refuses messages older than the seen cache can vouch for, by their signed timestamp.
///
/// A copy of a message seen before is dropped by the seen cache only while the cache still
/// holds its ID. Once the ID is gone (expired, or evicted early because the cache was full),
/// a replayed copy would look new. A message first arrived no earlier than its origin stamped
/// it, give or take the origins' clock error; so with the cache holding every ID inserted
/// since `vouchedSince`, a message is safe to accept when
///
///     timestamp - maxClockSkew >= vouchedSince   and   timestamp <= now + maxClockSkew
///
/// (a timestamp far in the future would stay "fresh" after its ID had expired). Both
/// sides are the node's wall clock in milliseconds since the Unix epoch.
public struct FreshnessRule: Equatable, Sendable {
    /// The clock error tolerated between an origin and this node.
    public var maxClockSkew: Duration
    /// When false the rule accepts everything (a node whose clock cannot be trusted).
    public var enabled: Bool

    /// Creates the rule.
    public init(maxClockSkew: Duration = .seconds(120), enabled: Bool = true) {
        self.maxClockSkew = maxClockSkew
        self.enabled = enabled
    }

    /// True when an envelope stamped `timestamp` may be accepted at wall time `wallNow`,
    /// given that the seen cache holds every ID inserted in the last `vouchedFor`.
    public func accepts(timestamp: UInt64, wallNow: UInt64, vouchedFor: Duration) -> Bool {
        guard enabled else { return true }
        let skew = Self.milliseconds(maxClockSkew)
        let window = Self.milliseconds(vouchedFor)
        let stamped = Int64(clamping: timestamp)
        let current = Int64(clamping: wallNow)
        guard stamped <= current &+ skew else { return false }
        return current &- stamped <= window &- skew
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000
    }
}
