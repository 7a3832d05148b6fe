/// A random 16-byte message identifier, the key of the seen cache.
public struct MessageID: Hashable, Sendable, CustomStringConvertible {
    /// The number of bytes in a message ID.
    public static let byteCount = 16
    /// The identifier bytes.
    public let bytes: [UInt8]

    /// Hashes the 16 bytes in one call; the synthesized hash fed them to the hasher one at a
    /// time, a cost paid on every dictionary and set look-up of the relay path.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Creates a message ID from exactly 16 bytes.
    public init(bytes: [UInt8]) throws(WireError) {
        guard bytes.count == Self.byteCount else {
            throw .lengthOutOfRange(field: "messageID", value: bytes.count, limit: Self.byteCount)
        }
        self.bytes = bytes
    }

    /// Reads a message ID from `reader`.
    public init(from reader: inout ByteReader) throws(WireError) {
        try self.init(bytes: reader.readBytes(Self.byteCount))
    }

    /// Draws a random message ID from `generator`.
    public init(random generator: inout some RandomNumberGenerator) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        for _ in 0..<Self.byteCount / 8 {
            var word = generator.next()
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        self.bytes = bytes
    }

    /// Parses 32 hexadecimal characters.
    public init?(hex: String) {
        guard let bytes = Hex.decode(hex), bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The ID as 32 lowercase hexadecimal characters.
    public var hex: String { Hex.encode(bytes) }

    /// The full hexadecimal form.
    public var description: String { hex }
}
