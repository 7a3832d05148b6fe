import MeshProtocol

/// The outcome of offering a message to a mailbox.
public enum MailboxAdmission: Equatable, Sendable {
    /// Held; the listed messages were evicted to make room, each with its cause.
    case held(evicted: [MailboxEviction])
    /// Not held.
    case refused(MailboxDropCause)
}

/// One message pushed out to make room for another.
public struct MailboxEviction: Equatable, Sendable {
    /// The message evicted.
    public var messageID: MessageID
    /// Which cap pushed it out.
    public var cause: MailboxDropCause

    /// Creates an eviction record.
    public init(messageID: MessageID, cause: MailboxDropCause) {
        self.messageID = messageID
        self.cause = cause
    }
}
