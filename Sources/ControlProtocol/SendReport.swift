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
    /// True when the destination's key was not known: the message waits for a key lookup and goes
    /// out, with this ID, when an answer brings the key (`lookup` shows how it stands). Absent otherwise.
    public var waitingForKey: Bool?
    /// True when, waiting for its key, the message is also kept in this node's mailbox database and
    /// goes out whenever the key becomes known within the retention (PROTOCOL.md H4, "Waiting for a
    /// key"). Absent otherwise.
    public var heldForKey: Bool?

    /// Creates a send report.
    public init(
        messageID: MessageID, sentTo: Int, heldFor: Int, waitingForKey: Bool = false, heldInMailbox: Bool? = nil,
        heldForKey: Bool = false
    ) {
        self.messageID = messageID.hex
        self.sentTo = sentTo
        self.heldFor = heldFor
        self.waitingForKey = waitingForKey ? true : nil
        self.heldInMailbox = heldInMailbox
        self.heldForKey = heldForKey ? true : nil
    }
}
