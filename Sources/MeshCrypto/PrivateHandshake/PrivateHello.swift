/// The clear half of the private key exchange (PROTOCOL.md D3b): a fresh ephemeral key and what
/// it answers, and nothing that names the sender.
///
/// Layout (98 bytes), sent alone as a Part B message of frame kind `0x09`: version `0x02` (1) ‖
/// ephemeral X9.63 (65) ‖ answering (32). `answering` is SHA-256 of the ephemeral key this hello
/// replies to, or 32 zero bytes for an opening.
public struct PrivateHello: Sendable, Equatable {
    /// The frame kind byte of a hello (PROTOCOL.md B1).
    public static let frameKind: UInt8 = 0x09
    /// The version byte of the private key exchange.
    public static let version: UInt8 = 2
    /// The exact encoded length.
    public static let encodedLength = 98

    /// The sender's fresh ephemeral ECDH key.
    public let ephemeralKey: P256PublicKey
    /// SHA-256 of the ephemeral key this hello answers, or ``KeyExchangeMessage/opening``.
    public let answering: [UInt8]

    /// True when this hello replies to an ephemeral key (it is not an opening).
    public var isAnswer: Bool { answering != KeyExchangeMessage.opening }

    /// A hello for `ephemeralKey`; `answering` must be 32 bytes.
    public init(ephemeralKey: P256PublicKey, answering: [UInt8]) throws(CryptoError) {
        guard answering.count == SHA256Digest.byteCount else {
            throw .invalidLength(field: "hello answering", expected: SHA256Digest.byteCount, actual: answering.count)
        }
        self.ephemeralKey = ephemeralKey
        self.answering = answering
    }

    /// Decodes exactly 98 bytes and validates the ephemeral key.
    public init(decoding bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count == Self.encodedLength else {
            if bytes.count < Self.encodedLength {
                throw .truncated(field: "hello", size: bytes.count, minimum: Self.encodedLength)
            }
            throw .tooLarge(field: "hello", size: bytes.count, limit: Self.encodedLength)
        }
        guard bytes[0] == Self.version else { throw .unsupportedVersion(bytes[0]) }
        try self.init(ephemeralKey: P256PublicKey(x963: Array(bytes[1..<66])), answering: Array(bytes[66..<98]))
    }

    /// The 98-byte wire encoding.
    public func encoded() -> [UInt8] { [Self.version] + ephemeralKey.x963 + answering }
}
