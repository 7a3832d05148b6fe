import MeshProtocol

/// The payload of a `.keyExchange` envelope: a fresh ephemeral key, the sender's identity keys,
/// what it answers, a timestamp, and the identity's signature over all of it.
///
/// Layout (300 bytes): version (1) ‖ ephemeral X9.63 (65) ‖ signing X9.63 (65) ‖
/// agreement X9.63 (65) ‖ answering (32) ‖ timestamp UInt64 BE (8) ‖ signature r ‖ s (64).
/// `answering` is SHA-256 of the ephemeral key this message replies to, or 32 zero bytes
/// for an opening message. The signature covers `domainLabel ‖ senderNodeID ‖ bytes 0..<236`.
public struct KeyExchangeMessage: Sendable, Equatable {
    /// The only version this node speaks.
    public static let version: UInt8 = 1
    /// The exact encoded length.
    public static let encodedLength = 300
    /// The domain-separation label that starts the signed transcript.
    public static let domainLabel = "MeshNode key exchange v1"
    /// The `answering` value of an opening (non-reply) message.
    public static let opening = [UInt8](repeating: 0, count: SHA256Digest.byteCount)
    private static let signedLength = encodedLength - 64

    /// The sender's fresh ephemeral ECDH key for this link.
    public let ephemeralKey: P256PublicKey
    /// The sender's identity signing key.
    public let signingKey: P256PublicKey
    /// The sender's identity key-agreement key.
    public let agreementKey: P256PublicKey
    /// SHA-256 of the ephemeral key this message answers, or `opening`.
    public let answering: [UInt8]
    /// Milliseconds since the Unix epoch at the sender (informational; bound by the signature).
    public let timestamp: UInt64
    /// Raw `r ‖ s` signature by `signingKey` over the transcript.
    public let signature: [UInt8]
    /// The node ID derived from the identity keys; trustworthy only after `verify()`.
    public let senderNodeID: NodeID

    /// True when this message replies to an ephemeral key (it is not an opening message).
    public var isAnswer: Bool { answering != Self.opening }

    /// Decodes exactly 300 bytes, validating all three public keys.
    public init(decoding bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count == Self.encodedLength else {
            if bytes.count < Self.encodedLength {
                throw .truncated(field: "key exchange", size: bytes.count, minimum: Self.encodedLength)
            }
            throw .tooLarge(field: "key exchange", size: bytes.count, limit: Self.encodedLength)
        }
        guard bytes[0] == Self.version else { throw .unsupportedVersion(bytes[0]) }
        let ephemeral = try P256PublicKey(x963: Array(bytes[1..<66]))
        let signing = try P256PublicKey(x963: Array(bytes[66..<131]))
        let agreement = try P256PublicKey(x963: Array(bytes[131..<196]))
        let timestamp = bytes[228..<236].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        try self.init(
            ephemeralKey: ephemeral, signingKey: signing, agreementKey: agreement,
            answering: Array(bytes[196..<228]), timestamp: timestamp, signature: Array(bytes[236...]))
    }

    private init(
        ephemeralKey: P256PublicKey, signingKey: P256PublicKey, agreementKey: P256PublicKey,
        answering: [UInt8], timestamp: UInt64, signature: [UInt8]
    ) throws(CryptoError) {
        self.ephemeralKey = ephemeralKey
        self.signingKey = signingKey
        self.agreementKey = agreementKey
        self.answering = answering
        self.timestamp = timestamp
        self.signature = signature
        senderNodeID = try NodeIdentity.deriveNodeID(signingKey: signingKey.x963, agreementKey: agreementKey.x963)
    }

    /// Builds and signs a message from `identity` for `ephemeral`.
    static func signed(
        by identity: NodeIdentity, ephemeral: P256PublicKey, answering: [UInt8], timestamp: UInt64
    ) throws(CryptoError) -> KeyExchangeMessage {
        let unsigned = try KeyExchangeMessage(
            ephemeralKey: ephemeral, signingKey: identity.signingPublicKey, agreementKey: identity.agreementPublicKey,
            answering: answering, timestamp: timestamp, signature: [])
        return try KeyExchangeMessage(
            ephemeralKey: ephemeral, signingKey: identity.signingPublicKey, agreementKey: identity.agreementPublicKey,
            answering: answering, timestamp: timestamp,
            signature: identity.signingKey.signature(for: unsigned.transcript))
    }

    /// The 300-byte wire encoding.
    public func encoded() -> [UInt8] { signedFields + signature }

    /// The bytes the signature covers: label ‖ sender node ID ‖ every field before the signature.
    public var transcript: [UInt8] { Array(Self.domainLabel.utf8) + senderNodeID.bytes + signedFields }

    /// Checks the signature; returns the sender's (now authenticated) node ID.
    public func verify() throws(CryptoError) -> NodeID {
        guard signingKey.isValidSignature(signature, for: transcript) else { throw .badSignature }
        return senderNodeID
    }

    /// SHA-256 of an ephemeral key's X9.63 encoding: the `answering` value that replies to it.
    public static func answerDigest(for ephemeral: P256PublicKey) throws(CryptoError) -> [UInt8] {
        try SHA256Digest.hash(ephemeral.x963)
    }

    private var signedFields: [UInt8] {
        var writer = ByteWriter(capacity: Self.encodedLength)
        writer.write(Self.version)
        writer.write(bytes: ephemeralKey.x963)
        writer.write(bytes: signingKey.x963)
        writer.write(bytes: agreementKey.x963)
        writer.write(bytes: answering)
        writer.write(timestamp)
        return writer.bytes
    }
}
