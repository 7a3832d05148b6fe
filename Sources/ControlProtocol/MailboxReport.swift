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

    /// False when `[mailbox] enabled = false` or the database could not be opened.
    public var enabled: Bool
    /// Recipients by node ID.
    public var recipients: [Recipient]
    /// The database and its write-ahead log on disk, in bytes.
    public var databaseBytes: Int
    /// This node's own messages waiting for their recipient's key, by recipient (`bytes` are text
    /// bytes; PROTOCOL.md H4, "Waiting for a key"). Absent from daemons without it.
    public var waitingForKey: [Recipient]?

    /// Creates a report.
    public init(enabled: Bool, recipients: [Recipient], databaseBytes: Int, waitingForKey: [Recipient]? = nil) {
        self.enabled = enabled
        self.recipients = recipients
        self.databaseBytes = databaseBytes
        self.waitingForKey = waitingForKey
    }
}
