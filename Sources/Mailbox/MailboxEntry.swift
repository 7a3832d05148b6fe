import MeshProtocol

/// What a mailbox knows of one held message without reading its sealed envelope.
public struct MailboxEntry: Equatable, Sendable {
    /// The message's ID.
    public var messageID: MessageID
    /// Its destination, for whom it is held.
    public var recipient: NodeID
    /// The node that wrote and signed it.
    public var origin: NodeID
    /// The neighbour whose link handed it to this node (this node for its own messages).
    public var depositor: NodeID
    /// Its encoded size in bytes.
    public var size: Int
    /// When it was deposited, in milliseconds since the Unix epoch (this node's mesh time).
    public var depositedAt: UInt64
    /// When a copy last went toward the recipient heard some hops away, or nil.
    public var lastCopyAt: UInt64?
    /// Deposit order, for "oldest first" among equal times.
    public var sequence: UInt64

    /// Creates an entry.
    public init(
        messageID: MessageID, recipient: NodeID, origin: NodeID, depositor: NodeID, size: Int, depositedAt: UInt64,
        lastCopyAt: UInt64? = nil, sequence: UInt64 = 0
    ) {
        self.messageID = messageID
        self.recipient = recipient
        self.origin = origin
        self.depositor = depositor
        self.size = size
        self.depositedAt = depositedAt
        self.lastCopyAt = lastCopyAt
        self.sequence = sequence
    }
}
