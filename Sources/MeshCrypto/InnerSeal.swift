import MeshProtocol

/// End-to-end sealing of direct-message payloads to the destination's agreement key, so relays
/// carry them opaque (an ECIES construction from CryptoKit-equivalent parts).
///
/// Box: ephemeral X9.63 (65) ‖ nonce (12) ‖ ciphertext ‖ tag (16).
/// Key: HKDF-SHA256(ECDH(ephemeral, recipient), salt "MeshNode inner v1",
/// info origin ‖ destination ‖ ephemeral X9.63 ‖ recipient X9.63, 32 bytes).
/// AAD: "MeshNode inner v1" ‖ kind ‖ message ID ‖ origin ‖ destination.
/// The box does not authenticate the origin: the envelope signature does.
public enum InnerSeal {
    /// The HKDF salt and AAD label.
    public static let label = Array("MeshNode inner v1".utf8)
    /// Bytes the seal adds around the padded plaintext.
    public static let overhead = P256PublicKey.x963ByteCount + AESGCM.nonceByteCount + AESGCM.tagByteCount
    /// The largest box: it must fit an envelope payload.
    public static let maximumBoxLength = Envelope.maxPayloadLength

    /// Seals `plaintext` for the holder of `recipientAgreementKey` with a fresh ephemeral key.
    public static func seal(
        _ plaintext: [UInt8], recipientAgreementKey: P256PublicKey, origin: NodeID, destination: NodeID,
        messageID: MessageID, kind: MessageKind, padding: PaddingPolicy = .buckets
    ) throws(CryptoError) -> [UInt8] {
        try seal(
            plaintext, recipientAgreementKey: recipientAgreementKey, origin: origin, destination: destination,
            messageID: messageID, kind: kind, padding: padding, ephemeral: P256KeyAgreementKey(),
            nonce: SecureRandom.bytes(AESGCM.nonceByteCount))
    }

    /// Seals with a chosen ephemeral key and nonce. Internal: only fixed test vectors use it.
    static func seal(
        _ plaintext: [UInt8], recipientAgreementKey: P256PublicKey, origin: NodeID, destination: NodeID,
        messageID: MessageID, kind: MessageKind, padding: PaddingPolicy, ephemeral: P256KeyAgreementKey, nonce: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let padded = try Padding.pad(plaintext, policy: padding, limit: maximumBoxLength - overhead)
        let key = try deriveKey(
            secret: ephemeral.sharedSecret(with: recipientAgreementKey), origin: origin, destination: destination,
            ephemeral: ephemeral.publicKey, recipient: recipientAgreementKey)
        let aad = aad(kind: kind, messageID: messageID, origin: origin, destination: destination)
        return ephemeral.publicKey.x963 + (try AESGCM.seal(padded, key: key, nonce: nonce, aad: aad))
    }

    /// Opens a box addressed to `identity`; any change to the box or the AAD fields fails.
    public static func open(
        _ box: [UInt8], identity: NodeIdentity, origin: NodeID, destination: NodeID, messageID: MessageID,
        kind: MessageKind
    ) throws(CryptoError) -> [UInt8] {
        guard destination == identity.nodeID else { throw .notAddressedToUs }
        let minimum = overhead + 1
        guard box.count >= minimum else { throw .truncated(field: "inner box", size: box.count, minimum: minimum) }
        guard box.count <= maximumBoxLength else {
            throw .tooLarge(field: "inner box", size: box.count, limit: maximumBoxLength)
        }
        let ephemeral = try P256PublicKey(x963: Array(box[..<P256PublicKey.x963ByteCount]))
        let key = try deriveKey(
            secret: identity.agreementKey.sharedSecret(with: ephemeral), origin: origin, destination: destination,
            ephemeral: ephemeral, recipient: identity.agreementPublicKey)
        let aad = aad(kind: kind, messageID: messageID, origin: origin, destination: destination)
        let padded = try AESGCM.open(Array(box[P256PublicKey.x963ByteCount...]), key: key, aad: aad)
        return try Padding.unpad(padded)
    }

    private static func deriveKey(
        secret: [UInt8], origin: NodeID, destination: NodeID, ephemeral: P256PublicKey, recipient: P256PublicKey
    ) throws(CryptoError) -> [UInt8] {
        try HKDFSHA256.deriveKey(
            inputKeyMaterial: secret, salt: label,
            info: origin.bytes + destination.bytes + ephemeral.x963 + recipient.x963, outputByteCount: AESGCM.keyByteCount)
    }

    static func aad(kind: MessageKind, messageID: MessageID, origin: NodeID, destination: NodeID) -> [UInt8] {
        label + [kind.rawValue] + messageID.bytes + origin.bytes + destination.bytes
    }
}
