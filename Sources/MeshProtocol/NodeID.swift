/// A persistent, self-certifying 16-byte node identifier.
///
/// It is the first 16 bytes of SHA-256 over the node's identity public keys (see
/// docs/PROTOCOL.md), so it never changes while the node keeps its keys.
public struct NodeID: SixteenByteIdentifier, Comparable, CustomStringConvertible {
    /// The field name a length error names.
    public static let fieldName = "nodeID"
    /// The identifier bytes.
    public let bytes: [UInt8]

    /// Wraps bytes already checked to be 16 (``SixteenByteIdentifier``).
    public init(checkedBytes: [UInt8]) { bytes = checkedBytes }

    /// The first 8 hexadecimal characters: the short ID of logs and tables (never on air, D13).
    public var shortID: String { String(hex.prefix(8)) }

    /// The short ID, for logs and tables.
    public var description: String { shortID }

    /// Orders IDs by their bytes, so both ends of a link agree on who is "first".
    public static func < (lhs: NodeID, rhs: NodeID) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
