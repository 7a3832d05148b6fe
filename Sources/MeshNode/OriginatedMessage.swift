import MeshProtocol

/// What became of a message this node originated.
public struct OriginatedMessage: Equatable, Sendable {
    /// The new message's ID.
    public var messageID: MessageID
    /// Neighbours it was sent to at once, on a ready link.
    public var sentTo: Int
    /// Neighbours in their departure grace it is held for (sent when a link is ready again).
    public var heldFor: Int
    /// True when its recipient was unreachable and it was offered to this node's mailbox.
    public var offeredToMailbox = false
    /// True when it waits for a key lookup (docs/PROTOCOL.md Part H) and goes out when the key comes.
    public var waitingForKey: Bool
    /// True when, waiting for its key, it is also kept in the mailbox database and goes out whenever
    /// the key becomes known within the retention (docs/PROTOCOL.md H4, "Waiting for a key").
    public var heldForKey = false

    /// Creates a record.
    public init(messageID: MessageID, sentTo: Int, heldFor: Int, waitingForKey: Bool = false) {
        self.messageID = messageID
        self.sentTo = sentTo
        self.heldFor = heldFor
        self.waitingForKey = waitingForKey
    }
}
