import MeshProtocol

/// The `cancel` result: the message that waited for a key and will not be sent.
public struct CancelReport: Codable, Equatable, Sendable {
    /// The cancelled message's ID, 32 hex digits.
    public var messageID: String
    /// The node it was for, 32 hex digits.
    public var nodeID: String
    /// Its text bytes (the text itself is gone from memory and from the mailbox database).
    public var bytes: Int

    /// Creates a cancel report.
    public init(messageID: MessageID, nodeID: NodeID, bytes: Int) {
        self.messageID = messageID.hex
        self.nodeID = nodeID.hex
        self.bytes = bytes
    }
}
