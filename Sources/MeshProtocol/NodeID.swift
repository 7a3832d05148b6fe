/// A persistent, self-certifying 16-byte node identifier.
///
/// It is the first 16 bytes of SHA-256 over the node's identity public keys (see
/// docs/PROTOCOL.md), so it never changes while the node keeps its keys.
public struct NodeID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number of bytes in a node ID.
    public static let byteCount = 16
    /// The identifier bytes.
    public let bytes: [UInt8]

    /// Hashes the 16 bytes in one call; the synthesized hash fed them to the hasher one at a
    /// time, a cost paid on every dictionary and set look-up of the relay path.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Creates a node ID from exactly 16 bytes.
    public init(bytes: [UInt8]) throws(WireError) {
        guard bytes.count == Self.byteCount else {
            throw .lengthOutOfRange(field: "nodeID", value: bytes.count, limit: Self.byteCount)
        }
        self.bytes = bytes
    }

    /// Reads a node ID from `reader`.
    public init(from reader: inout ByteReader) throws(WireError) {
        try self.init(bytes: reader.readBytes(Self.byteCount))
    }

    /// Parses 32 hexadecimal characters.
    public init?(hex: String) {
        guard let bytes = Hex.decode(hex), bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The ID as 32 lowercase hexadecimal characters.
    public var hex: String { Hex.encode(bytes) }

    /// The first 8 hexadecimal characters: the name a node advertises in the 31-byte packet.
    public var shortID: String { String(hex.prefix(8)) }

    /// The short ID, for logs and tables.
    public var description: String { shortID }

    /// Orders IDs by their bytes, so both ends of a link agree on who is "first".
    public static func < (lhs: NodeID, rhs: NodeID) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
