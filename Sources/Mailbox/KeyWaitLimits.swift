import MeshProtocol

/// The bounds of the messages this node's operator wrote to nodes whose key is not known yet
/// (docs/PROTOCOL.md H4, "Waiting for a key"; docs/SECURITY.md, "Mailboxes"). Bytes are UTF-8
/// text bytes; the text is kept in plaintext until the key comes.
public struct KeyWaitLimits: Equatable, Sendable {
    /// How long a message waits for its key, in milliseconds (the mailbox's retention).
    public var retentionMilliseconds: UInt64
    /// The most messages waiting in all.
    public var totalMessages: Int
    /// The most text bytes waiting in all.
    public var totalBytes: Int
    /// The most messages waiting for one node's key.
    public var messagesPerTarget: Int
    /// The most text bytes waiting for one node's key.
    public var bytesPerTarget: Int

    /// Creates limits; the defaults are the shipped ones.
    public init(
        retentionMilliseconds: UInt64 = MailboxHorizon.milliseconds, totalMessages: Int = 256, totalBytes: Int = 512 << 10,
        messagesPerTarget: Int = 32, bytesPerTarget: Int = 64 << 10
    ) {
        self.retentionMilliseconds = retentionMilliseconds
        self.totalMessages = totalMessages
        self.totalBytes = totalBytes
        self.messagesPerTarget = messagesPerTarget
        self.bytesPerTarget = bytesPerTarget
    }
}
