/// Follows sealed messages through the air by the message ID that leads every link packet.
///
/// The simulator sees frames, not plaintext; the first fragment of a sealed message
/// starts with its 16-byte message ID in clear (docs/PROTOCOL.md), which is enough to
/// check the relay rules from outside: who first handed a node a message, and whether
/// the node ever sent that message back to that neighbour.
public struct MessageTrace: Sendable {
    private struct Key: Hashable, Sendable {
        let node: Int
        let messageID: [UInt8]
    }

    private var firstSender: [Key: Int] = [:]
    /// Times a node sent a message back to the neighbour that first handed it over.
    public private(set) var sentBack = 0
    /// Sealed first fragments seen on the air, by kind byte.
    public private(set) var transmissions: [UInt8: Int] = [:]

    /// Creates an empty trace.
    public init() {}

    mutating func delivered(_ frame: [UInt8], to node: Int, from sender: Int) {
        guard let id = Self.messageID(of: frame) else { return }
        let key = Key(node: node, messageID: id)
        if firstSender[key] == nil { firstSender[key] = sender }
    }

    mutating func sent(_ frame: [UInt8], from node: Int, to receiver: Int) {
        guard let id = Self.messageID(of: frame) else { return }
        transmissions[frame[0], default: 0] += 1
        if firstSender[Key(node: node, messageID: id)] == receiver { sentBack += 1 }
    }

    /// The message ID of a sealed message's first fragment (kinds other than the key exchange's:
    /// `0x05`, and the private hello `0x09` and identity proof `0x0A`, carry no message ID).
    static func messageID(of frame: [UInt8]) -> [UInt8]? {
        guard frame.count >= 9 + 16, ![0x05, 0x09, 0x0A].contains(frame[0]), frame[5] == 0, frame[6] == 0 else { return nil }
        return Array(frame[9..<25])
    }
}
