/// A random 16-byte message identifier, the key of the seen cache.
public struct MessageID: SixteenByteIdentifier, CustomStringConvertible {
    /// The field name a length error names.
    public static let fieldName = "messageID"
    /// The identifier bytes.
    public let bytes: [UInt8]

    /// Wraps bytes already checked to be 16 (``SixteenByteIdentifier``).
    public init(checkedBytes: [UInt8]) { bytes = checkedBytes }

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

    /// The full hexadecimal form.
    public var description: String { hex }
}
