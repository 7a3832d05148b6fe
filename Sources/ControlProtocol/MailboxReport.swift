import MeshProtocol

/// The `mailbox` result: what this node holds for recipients not in range, never content
/// (PROTOCOL.md Part G).
public struct MailboxReport: Codable, Equatable, Sendable {
    /// One recipient with mail held.
    public struct Recipient: Codable, Equatable, Sendable {
        /// The recipient's node ID, 32 hex digits.
        public var nodeID: String
        /// The first 8 hex digits.
        public var shortID: String
        /// Messages held for it.
        public var count: Int
        /// Their envelope bytes.
        public var bytes: Int
        /// Seconds since the oldest of them was deposited.
        public var oldestAgeSeconds: Double

        /// Creates a recipient line.
        public init(nodeID: NodeID, count: Int, bytes: Int, oldestAgeSeconds: Double) {
            self.nodeID = nodeID.hex
            self.shortID = nodeID.shortID
            self.count = count
            self.bytes = bytes
            self.oldestAgeSeconds = oldestAgeSeconds
        }
    }

    /// One of this node's own messages waiting for its recipient's key, by message ID.
    public struct WaitingMessage: Codable, Equatable, Sendable {
        /// The ID it will carry, 32 hex digits (what `send` printed; `cancel` takes it).
        public var messageID: String
        /// The recipient's node ID, 32 hex digits.
        public var nodeID: String
        /// The recipient's first 8 hex digits.
        public var shortID: String
        /// Its text bytes.
        public var bytes: Int
        /// Seconds since it was written.
        public var ageSeconds: Double
        /// True when it is kept in the mailbox database (sent whenever the key comes within the
        /// retention); false when it waits in memory for the current lookup only.
        public var stored: Bool

        /// Creates a line.
        public init(messageID: MessageID, nodeID: NodeID, bytes: Int, ageSeconds: Double, stored: Bool) {
            self.messageID = messageID.hex
            self.nodeID = nodeID.hex
            self.shortID = nodeID.shortID
            self.bytes = bytes
            self.ageSeconds = ageSeconds
            self.stored = stored
        }
    }

    /// False when `[mailbox] enabled = false` or the database could not be opened.
    public var enabled: Bool
    /// Recipients by node ID.
    public var recipients: [Recipient]
    /// The database and its write-ahead log on disk, in bytes.
    public var databaseBytes: Int
    /// This node's own messages waiting for their recipient's key, by recipient (`bytes` are text
    /// bytes; PROTOCOL.md H4, "Waiting for a key"). Absent from daemons without it.
    public var waitingForKey: [Recipient]?

    /// This node's own messages waiting for a key, one by one, oldest first: those in the mailbox
    /// database and those waiting in memory for a lookup in flight. Absent from older daemons.
    public var waitingMessages: [WaitingMessage]?

    /// Creates a report.
    public init(
        enabled: Bool, recipients: [Recipient], databaseBytes: Int, waitingForKey: [Recipient]? = nil,
        waitingMessages: [WaitingMessage]? = nil
    ) {
        self.enabled = enabled
        self.recipients = recipients
        self.databaseBytes = databaseBytes
        self.waitingForKey = waitingForKey
        self.waitingMessages = waitingMessages
    }
}
