import MeshProtocol

/// What one mailbox tick did, for the log.
public struct MailboxTickOutcome: Equatable, Sendable {
    /// Held messages sent to each recipient over its own link this tick, in the order sent (each
    /// is removed once that link stayed up `HandOverLedger.confirmAfter`).
    public var handedOver: [NodeID: [MessageID]] = [:]
    /// Copies sent toward recipients heard some hops away.
    public var copies = 0
    /// Messages that outlived the retention.
    public var expired = 0
    /// This node's own messages sent, per recipient, because its key became known.
    public var sentAfterKey: [NodeID: Int] = [:]
    /// This node's own messages that waited the whole retention for a key.
    public var expiredWaitingForKey = 0

    /// Creates an empty outcome.
    public init() {}
}
