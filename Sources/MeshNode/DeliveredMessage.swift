import MeshProtocol

/// A chat message delivered to this node.
public struct DeliveredMessage: Equatable, Sendable {
    /// The message ID.
    public var messageID: MessageID
    /// Who wrote it.
    public var origin: NodeID
    /// This node for a direct message; nil for broadcast.
    public var destination: NodeID?
    /// How many relays it passed.
    public var hops: UInt8
    /// When the origin sent it (milliseconds since the Unix epoch).
    public var timestamp: UInt64
    /// The text.
    public var text: String
}
