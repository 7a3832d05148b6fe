import MeshProtocol

/// The `send` result.
public struct SendReport: Codable, Equatable, Sendable {
    /// The new message's ID, 32 hex digits.
    public var messageID: String
    /// Neighbours it went to at once, on a ready link.
    public var sentTo: Int
    /// Neighbours in their departure grace it is held for, sent when one of their links is ready.
    public var heldFor: Int
    /// True when the recipient was not in range and the message waits in this node's mailbox
    /// (PROTOCOL.md Part G); absent from daemons without mailboxes.
    public var heldInMailbox: Bool?

    /// Creates a send report.
    public init(messageID: MessageID, sentTo: Int, heldFor: Int, heldInMailbox: Bool? = nil) {
        self.messageID = messageID.hex
        self.sentTo = sentTo
        self.heldFor = heldFor
        self.heldInMailbox = heldInMailbox
    }
}
