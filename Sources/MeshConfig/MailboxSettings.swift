import MeshProtocol

/// `[mailbox]` settings: direct messages kept for recipients who are not in range
/// (docs/PROTOCOL.md Part G, docs/SECURITY.md "Mailboxes"). The bounds' defaults are `MailboxLimits()`'s,
/// written once there; the retention's is the mailbox horizon (`MailboxHorizon`), also its upper bound.
public struct MailboxSettings: Equatable, Sendable {
    /// Whether this node keeps mail for unreachable recipients.
    public var enabled = true
    /// The database file's name in the state directory.
    public var file = "mailbox.db"
    /// How long a message is kept.
    public var retention = MailboxHorizon.duration
    /// The most messages held in all.
    public var messages = MailboxLimits().totalMessages
    /// The most bytes held in all.
    public var bytes = MailboxLimits().totalBytes
    /// The most messages held for one recipient.
    public var messagesPerRecipient = MailboxLimits().messagesPerRecipient
    /// The most bytes held for one recipient.
    public var bytesPerRecipient = MailboxLimits().bytesPerRecipient
    /// The most messages held from one origin.
    public var messagesPerOrigin = MailboxLimits().messagesPerOrigin
    /// The most messages held from one depositor (the neighbour that handed them over).
    public var messagesPerDepositor = MailboxLimits().messagesPerDepositor
    /// The most bytes held from one depositor.
    public var bytesPerDepositor = MailboxLimits().bytesPerDepositor
    /// The least time between two copies of one message toward a recipient heard some hops away.
    public var copyInterval = Duration.milliseconds(MailboxLimits().copyIntervalMilliseconds)
    /// A node heard through another node within this long counts as reachable (its mail is not deposited).
    public var reachWindow = Duration.seconds(120)

    /// Creates the defaults.
    public init() {}
}
