import MeshLink
import MeshProtocol

/// A transfer the engine sent, as the simulator notes it (`EngineConfiguration.notesSentTransfers`):
/// what its frames carry, which an opaque link packet (PROTOCOL.md D14) hides from the air.
public struct SentTransfer: Equatable, Sendable {
    /// The link it went on.
    public let link: LinkID
    /// The transfer ID in its frames' headers.
    public let transferID: UInt32
    /// The kind it carries: a message kind, or a frame kind of its own (`0x08`, `0x09`, `0x0A`).
    public let kind: UInt8
    /// The envelope's message ID, for an envelope.
    public let messageID: MessageID?

    /// Creates a note.
    public init(link: LinkID, transferID: UInt32, kind: UInt8, messageID: MessageID?) {
        self.link = link
        self.transferID = transferID
        self.kind = kind
        self.messageID = messageID
    }
}

extension MeshEngine {
    /// The transfers sent since the last call, oldest first (empty unless
    /// `EngineConfiguration.notesSentTransfers`).
    public func takeSentTransfers() -> [SentTransfer] {
        defer { sentTransfers.removeAll(keepingCapacity: true) }
        return sentTransfers
    }
}
