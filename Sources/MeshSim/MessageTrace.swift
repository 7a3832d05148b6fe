import MeshNode

/// Follows sealed messages through the air by their message IDs, as each sender noted them
/// (`EngineConfiguration.notesSentTransfers`; an opaque link packet, PROTOCOL.md D14, shows no ID
/// on the air): who first handed a node a message, and whether the node ever sent that message
/// back to that neighbour.
public struct MessageTrace: Sendable {
    private struct Key: Hashable, Sendable {
        let node: Int
        let messageID: [UInt8]
    }

    private var firstSender: [Key: Int] = [:]
    /// Times a node sent a message back to the neighbour that first handed it over.
    public private(set) var sentBack = 0
    /// Sealed envelopes sent, by kind.
    public private(set) var transmissions: [UInt8: Int] = [:]

    /// Creates an empty trace.
    public init() {}

    mutating func delivered(_ transfer: SentTransfer, to node: Int, from sender: Int) {
        guard let id = transfer.messageID?.bytes, Self.traced(transfer.kind) else { return }
        let key = Key(node: node, messageID: id)
        if firstSender[key] == nil { firstSender[key] = sender }
    }

    mutating func sent(_ transfer: SentTransfer, from node: Int, to receiver: Int) {
        guard let id = transfer.messageID?.bytes, Self.traced(transfer.kind) else { return }
        transmissions[transfer.kind, default: 0] += 1
        if firstSender[Key(node: node, messageID: id)] == receiver { sentBack += 1 }
    }

    /// Kinds traced: the sealed envelopes (not the key exchange, `0x05`).
    static func traced(_ kind: UInt8) -> Bool { kind != 0x05 }
}
