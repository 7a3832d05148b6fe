import MeshProtocol

/// The directional AES-256-GCM keys of one neighbour link, and who the neighbour is.
public struct LinkKeys: Sendable, Equatable, CustomStringConvertible {
    /// The HKDF salt of the link key derivation.
    public static let salt = Array("MeshNode link v1".utf8)

    /// This node's ID.
    public let localNodeID: NodeID
    /// The neighbour's authenticated node ID.
    public let remoteNodeID: NodeID
    /// The neighbour's identity signing key, from its verified key exchange.
    public let remoteSigningKey: P256PublicKey
    /// The neighbour's identity key-agreement key, from its verified key exchange.
    public let remoteAgreementKey: P256PublicKey
    /// The key for packets this node sends.
    public let sendKey: [UInt8]
    /// The key for packets this node receives.
    public let receiveKey: [UInt8]

    /// Derives the keys of the signed key exchange (PROTOCOL.md D5): IKM = ECDH(local
    /// ephemeral, remote ephemeral); salt = `salt`; info = lower node ID ‖ higher node ID ‖
    /// lower's ephemeral ‖ higher's ephemeral; 64 bytes out. Bytes 0..<32 key lower→higher
    /// traffic, bytes 32..<64 key higher→lower traffic.
    static func derive(
        localNodeID: NodeID, localEphemeral: P256KeyAgreementKey, remote message: KeyExchangeMessage
    ) throws(CryptoError) -> LinkKeys {
        try derive(
            salt: salt, secret: localEphemeral.sharedSecret(with: message.ephemeralKey), localNodeID: localNodeID,
            localEphemeral: localEphemeral.publicKey,
            remote: (message.senderNodeID, message.ephemeralKey, message.signingKey, message.agreementKey))
    }

    /// The D5 derivation with a given salt and shared secret (the private key exchange uses
    /// `IdentityProof.salt`).
    static func derive(
        salt: [UInt8], secret: [UInt8], localNodeID: NodeID, localEphemeral: P256PublicKey,
        remote: (nodeID: NodeID, ephemeral: P256PublicKey, signingKey: P256PublicKey, agreementKey: P256PublicKey)
    ) throws(CryptoError) -> LinkKeys {
        guard remote.nodeID != localNodeID else { throw .reflectedKeyExchange }
        let localIsLower = localNodeID < remote.nodeID
        let local = (id: localNodeID.bytes, ephemeral: localEphemeral.x963)
        let other = (id: remote.nodeID.bytes, ephemeral: remote.ephemeral.x963)
        let (lower, higher) = localIsLower ? (local, other) : (other, local)
        let okm = try HKDFSHA256.deriveKey(
            inputKeyMaterial: secret, salt: salt, info: lower.id + higher.id + lower.ephemeral + higher.ephemeral,
            outputByteCount: 64)
        let lowerToHigher = Array(okm[0..<32])
        let higherToLower = Array(okm[32..<64])
        return LinkKeys(
            localNodeID: localNodeID, remoteNodeID: remote.nodeID, remoteSigningKey: remote.signingKey,
            remoteAgreementKey: remote.agreementKey,
            sendKey: localIsLower ? lowerToHigher : higherToLower,
            receiveKey: localIsLower ? higherToLower : lowerToHigher)
    }

    /// Names the link without printing key material.
    public var description: String { "LinkKeys(\(localNodeID.shortID)↔\(remoteNodeID.shortID))" }
}
