import MeshProtocol

/// The secret half of the private key exchange (PROTOCOL.md D3b): once two hellos are paired,
/// each side proves its identity to the other under a key only the two of them hold.
///
/// Wire form (222 bytes), sent alone as a Part B message of frame kind `0x0A`: an AES-256-GCM box
/// `nonce (12) ‖ ciphertext (194) ‖ tag (16)` whose plaintext is signing key X9.63 (65) ‖
/// agreement key X9.63 (65) ‖ signature r ‖ s (64), the signature by the signing key over
/// `label ‖ sender node ID ‖ sender's ephemeral ‖ receiver's ephemeral`.
public enum IdentityProof {
    /// The frame kind byte of an identity proof (PROTOCOL.md B1).
    public static let frameKind: UInt8 = 0x0A
    /// The exact encoded length.
    public static let encodedLength = AESGCM.nonceByteCount + plaintextLength + AESGCM.tagByteCount
    /// The label that starts the signed bytes and the AAD.
    public static let label = Array("MeshNode identity v2".utf8)
    /// The HKDF salt of the proof keys and of the private link keys.
    public static let salt = Array("MeshNode link v2".utf8)
    /// The HKDF info prefix of the proof keys.
    public static let proofInfoLabel = Array("identity".utf8)
    static let plaintextLength = 65 + 65 + 64

    /// The two proof keys of a pairing: each side seals its proof with the key of its own
    /// ephemeral's position (the lexicographically smaller X9.63 encoding first).
    static func proofKeys(
        secret: [UInt8], ours: P256PublicKey, theirs: P256PublicKey
    ) throws(CryptoError) -> (send: [UInt8], receive: [UInt8]) {
        let oursFirst = ours.x963.lexicographicallyPrecedes(theirs.x963)
        let (first, second) = oursFirst ? (ours.x963, theirs.x963) : (theirs.x963, ours.x963)
        let okm = try HKDFSHA256.deriveKey(
            inputKeyMaterial: secret, salt: salt, info: proofInfoLabel + first + second, outputByteCount: 64)
        let firstKey = Array(okm[0..<32])
        let secondKey = Array(okm[32..<64])
        return oursFirst ? (firstKey, secondKey) : (secondKey, firstKey)
    }

    /// The bytes the identity signature covers.
    static func signedBytes(sender: NodeID, senderEphemeral: P256PublicKey, receiverEphemeral: P256PublicKey) -> [UInt8] {
        label + sender.bytes + senderEphemeral.x963 + receiverEphemeral.x963
    }

    /// The AAD of the proof box.
    static func aad(senderEphemeral: P256PublicKey, receiverEphemeral: P256PublicKey) -> [UInt8] {
        label + senderEphemeral.x963 + receiverEphemeral.x963
    }

    /// Seals `identity`'s proof for the pairing of `ours` (sent) and `theirs` (received). Only
    /// fixed test vectors pass a nonce and a signature (ECDSA signatures are randomized).
    static func seal(
        identity: NodeIdentity, ours: P256PublicKey, theirs: P256PublicKey, key: [UInt8], nonce: [UInt8]? = nil,
        signature fixedSignature: [UInt8]? = nil
    ) throws(CryptoError) -> [UInt8] {
        let signature: [UInt8]
        if let fixedSignature {
            signature = fixedSignature
        } else {
            signature = try identity.signingKey.signature(
                for: signedBytes(sender: identity.nodeID, senderEphemeral: ours, receiverEphemeral: theirs))
        }
        let plaintext = identity.signingPublicKey.x963 + identity.agreementPublicKey.x963 + signature
        let aad = aad(senderEphemeral: ours, receiverEphemeral: theirs)
        if let nonce { return try AESGCM.seal(plaintext, key: key, nonce: nonce, aad: aad) }
        return try AESGCM.seal(plaintext, key: key, aad: aad)
    }

    /// Opens and verifies a peer's proof for the pairing of `theirs` (the peer's ephemeral) and
    /// `ours`: returns the peer's identity keys and its node ID.
    static func open(
        _ bytes: [UInt8], ours: P256PublicKey, theirs: P256PublicKey, key: [UInt8]
    ) throws(CryptoError) -> (signingKey: P256PublicKey, agreementKey: P256PublicKey, nodeID: NodeID) {
        guard bytes.count == encodedLength else {
            if bytes.count < encodedLength { throw .truncated(field: "identity proof", size: bytes.count, minimum: encodedLength) }
            throw .tooLarge(field: "identity proof", size: bytes.count, limit: encodedLength)
        }
        let plaintext = try AESGCM.open(bytes, key: key, aad: aad(senderEphemeral: theirs, receiverEphemeral: ours))
        guard plaintext.count == plaintextLength else {
            throw .invalidLength(field: "identity proof plaintext", expected: plaintextLength, actual: plaintext.count)
        }
        let signing = try P256PublicKey(x963: Array(plaintext[0..<65]))
        let agreement = try P256PublicKey(x963: Array(plaintext[65..<130]))
        let nodeID = try NodeIdentity.deriveNodeID(signingKey: signing.x963, agreementKey: agreement.x963)
        let signed = signedBytes(sender: nodeID, senderEphemeral: theirs, receiverEphemeral: ours)
        guard signing.isValidSignature(Array(plaintext[130..<194]), for: signed) else { throw .badSignature }
        return (signing, agreement, nodeID)
    }
}
