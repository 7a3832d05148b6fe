import MeshProtocol

/// What `relayctl mailbox` shows of one recipient: never content.
public struct MailboxRecipientSummary: Equatable, Sendable {
    /// The recipient.
    public var recipient: NodeID
    /// Messages held for it.
    public var count: Int
    /// Their encoded bytes.
    public var bytes: Int
    /// When the oldest was deposited, milliseconds since the Unix epoch.
    public var oldestDepositedAt: UInt64

    /// Creates a summary.
    public init(recipient: NodeID, count: Int, bytes: Int, oldestDepositedAt: UInt64) {
        self.recipient = recipient
        self.count = count
        self.bytes = bytes
        self.oldestDepositedAt = oldestDepositedAt
    }
}
