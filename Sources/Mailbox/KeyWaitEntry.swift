import MeshProtocol

/// One message waiting for its recipient's key (its text is in the store, not here).
public struct KeyWaitEntry: Equatable, Sendable {
    /// The message ID it will carry, drawn when it was written (reported to the writer).
    public var messageID: MessageID
    /// The node whose key it waits for.
    public var target: NodeID
    /// UTF-8 bytes of its text.
    public var size: Int
    /// Mesh time it was written, in milliseconds since the Unix epoch.
    public var queuedAt: UInt64
    /// Order of writing (oldest first).
    public var sequence: UInt64

    /// Creates an entry.
    public init(messageID: MessageID, target: NodeID, size: Int, queuedAt: UInt64, sequence: UInt64) {
        self.messageID = messageID
        self.target = target
        self.size = size
        self.queuedAt = queuedAt
        self.sequence = sequence
    }
}
