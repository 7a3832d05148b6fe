/// What key lookup did (`relayctl stats` group `lookup`; docs/CONTROL.md).
public struct KeyLookupCounters: Equatable, Sendable {
    /// Lookups this node started (a user wrote to a node whose key it lacked, or `relayctl lookup`).
    public var started: UInt64 = 0
    /// Lookups that ended with the key.
    public var found: UInt64 = 0
    /// Lookups that gave up after the timeout.
    public var timedOut: UInt64 = 0
    /// Lookups refused because `maxLookups` were in flight.
    public var refusedFull: UInt64 = 0
    /// Requests sent again after the retry interval.
    public var retries: UInt64 = 0
    /// Answers scheduled (this node held the target's profile or is the target).
    public var answersScheduled: UInt64 = 0
    /// Answers sent.
    public var answersSent: UInt64 = 0
    /// Scheduled answers cancelled because another answer to the same request was heard first.
    public var answersCancelled: UInt64 = 0
    /// Answers not given because the same requester had one about the same target lately.
    public var answersRepeated: UInt64 = 0
    /// Answers not given because a budget (total, neighbour or target) was spent.
    public var answersOverBudget: UInt64 = 0
    /// Requests neither relayed nor answered because a request budget was spent.
    public var requestsOverBudget: UInt64 = 0
    /// Key answers the MQTT bridge delivered for no request this gateway had published (dropped).
    public var bridgedAnswersUnrequested: UInt64 = 0
    /// Key answers accepted that nobody here asked for: not for a lookup of this node's in flight
    /// about that target, and for no request this node relayed. Relayed by Part C; nothing kept.
    public var answersUnrequested: UInt64 = 0
    /// Messages that waited for a key and were sent when it came.
    public var messagesSentAfterLookup: UInt64 = 0
    /// Messages that waited for a key and were dropped when the lookup timed out or the queue was full.
    public var messagesDropped: UInt64 = 0
    /// Messages that waited in memory for a key and were cancelled by the operator (`relayctl cancel`).
    public var messagesCancelled: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
