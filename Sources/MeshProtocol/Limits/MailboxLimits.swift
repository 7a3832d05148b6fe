/// The bounds a mailbox keeps (meshnoded.conf `[mailbox]`, docs/SECURITY.md "Mailboxes").
///
/// Counts and bytes are capped per recipient, per origin, per depositor (the neighbour whose
/// link handed the message over, or this node for its own) and in total. Bytes are encoded
/// envelope bytes.
public struct MailboxLimits: Equatable, Sendable {
    /// How long a message is kept, in milliseconds (default and most: the mailbox horizon, 24 h).
    public var retentionMilliseconds: UInt64
    /// The most messages held in all.
    public var totalMessages: Int
    /// The most bytes held in all.
    public var totalBytes: Int
    /// The most messages held for one recipient.
    public var messagesPerRecipient: Int
    /// The most bytes held for one recipient.
    public var bytesPerRecipient: Int
    /// The most messages held from one origin.
    public var messagesPerOrigin: Int
    /// The most messages held from one depositor.
    public var messagesPerDepositor: Int
    /// The most bytes held from one depositor.
    public var bytesPerDepositor: Int
    /// The largest envelope taken.
    public var maxMessageBytes: Int
    /// The least time between two copies of one message toward a recipient heard some hops away.
    public var copyIntervalMilliseconds: UInt64
    /// The most held messages handed to a directly linked recipient per engine tick (250 ms).
    public var handOversPerTick: Int

    /// Creates limits; the defaults are the shipped ones.
    public init(
        retentionMilliseconds: UInt64 = MailboxHorizon.milliseconds, totalMessages: Int = 2_000, totalBytes: Int = 8 << 20,
        messagesPerRecipient: Int = 200, bytesPerRecipient: Int = 1 << 20, messagesPerOrigin: Int = 200,
        messagesPerDepositor: Int = 500, bytesPerDepositor: Int = 2 << 20, maxMessageBytes: Int = 16_384,
        copyIntervalMilliseconds: UInt64 = 600_000, handOversPerTick: Int = 8
    ) {
        self.retentionMilliseconds = retentionMilliseconds
        self.totalMessages = totalMessages
        self.totalBytes = totalBytes
        self.messagesPerRecipient = messagesPerRecipient
        self.bytesPerRecipient = bytesPerRecipient
        self.messagesPerOrigin = messagesPerOrigin
        self.messagesPerDepositor = messagesPerDepositor
        self.bytesPerDepositor = bytesPerDepositor
        self.maxMessageBytes = maxMessageBytes
        self.copyIntervalMilliseconds = copyIntervalMilliseconds
        self.handOversPerTick = handOversPerTick
    }
}
