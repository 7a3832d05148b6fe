import MeshProtocol

/// What one mailbox tick did, for the log.
public struct MailboxTickOutcome: Equatable, Sendable {
    /// Held messages handed to each recipient over its own link.
    public var handedOver: [NodeID: Int] = [:]
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
