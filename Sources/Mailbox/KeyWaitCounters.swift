/// What the key-wait queue did since the node started (group `outbox` in `relayctl stats`).
public struct KeyWaitCounters: Equatable, Sendable {
    /// Messages taken in to wait for a key.
    public var queued: UInt64 = 0
    /// Messages sealed and sent once their key was known.
    public var sent: UInt64 = 0
    /// Messages that waited the whole retention without a key (removed).
    public var expired: UInt64 = 0
    /// Messages refused because a target's cap was reached.
    public var refusedTargetCap: UInt64 = 0
    /// Messages refused because the total cap was reached.
    public var refusedTotalCap: UInt64 = 0
    /// Messages cancelled by the operator (`relayctl cancel`), never sent.
    public var cancelled: UInt64 = 0
    /// Key lookups started again for waiting messages (after the one at writing).
    public var lookupRetries: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
