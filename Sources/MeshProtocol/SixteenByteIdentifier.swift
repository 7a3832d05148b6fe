/// A 16-byte identifier on the wire (``MessageID``, ``NodeID``): exactly 16 bytes, hashed in one
/// call, read from a ``ByteReader`` and written as 32 lowercase hexadecimal characters.
public protocol SixteenByteIdentifier: Hashable, Sendable {
    /// The field name a length error names (`messageID`, `nodeID`).
    static var fieldName: String { get }
    /// The identifier bytes, always 16.
    var bytes: [UInt8] { get }
    /// Wraps bytes already checked to be 16.
    init(checkedBytes: [UInt8])
}

extension SixteenByteIdentifier {
    /// The number of bytes in the identifier.
    public static var byteCount: Int { 16 }

    /// Hashes the 16 bytes in one call; the synthesized hash fed them to the hasher one at a
    /// time, a cost paid on every dictionary and set look-up of the relay path.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Creates the identifier from exactly 16 bytes.
    public init(bytes: [UInt8]) throws(WireError) {
        guard bytes.count == Self.byteCount else {
            throw .lengthOutOfRange(field: Self.fieldName, value: bytes.count, limit: Self.byteCount)
        }
        self.init(checkedBytes: bytes)
    }

    /// Reads the identifier from `reader`.
    public init(from reader: inout ByteReader) throws(WireError) {
        try self.init(bytes: reader.readBytes(Self.byteCount))
    }

    /// Parses 32 hexadecimal characters.
    public init?(hex: String) {
        guard let bytes = Hex.decode(hex), bytes.count == Self.byteCount else { return nil }
        self.init(checkedBytes: bytes)
    }

    /// The identifier as 32 lowercase hexadecimal characters.
    public var hex: String { Hex.encode(bytes) }
}
