import MeshProtocol

/// A node's long-term identity: an ECDSA signing key and an ECDH key-agreement key, both P-256.
///
/// The node ID is self-certifying: the first 16 bytes of
/// SHA-256(signing public key X9.63 ‖ agreement public key X9.63).
public struct NodeIdentity: Sendable {
    /// The signing (ECDSA) private key.
    public let signingKey: P256SigningKey
    /// The key-agreement (ECDH) private key.
    public let agreementKey: P256KeyAgreementKey
    /// The node ID derived from the two public keys.
    public let nodeID: NodeID
    /// The safety-number style fingerprint of the two public keys.
    public let fingerprint: String

    /// Builds an identity from its two private keys.
    public init(signingKey: P256SigningKey, agreementKey: P256KeyAgreementKey) throws(CryptoError) {
        self.signingKey = signingKey
        self.agreementKey = agreementKey
        nodeID = try Self.deriveNodeID(signingKey: signingKey.publicKey.x963, agreementKey: agreementKey.publicKey.x963)
        fingerprint = try Self.fingerprint(signingKey: signingKey.publicKey.x963, agreementKey: agreementKey.publicKey.x963)
    }

    /// Generates a new identity from the system CSPRNG.
    public static func generate() throws(CryptoError) -> NodeIdentity {
        try NodeIdentity(signingKey: P256SigningKey(), agreementKey: P256KeyAgreementKey())
    }

    /// The signing public key.
    public var signingPublicKey: P256PublicKey { signingKey.publicKey }
    /// The key-agreement public key.
    public var agreementPublicKey: P256PublicKey { agreementKey.publicKey }
    /// The first 8 hex characters of the node ID.
    public var shortID: String { nodeID.shortID }

    /// Derives a node ID from two 65-byte X9.63 public keys (for checking profiles).
    public static func deriveNodeID(signingKey: [UInt8], agreementKey: [UInt8]) throws(CryptoError) -> NodeID {
        try checkLengths(signingKey, agreementKey)
        let digest = try SHA256Digest.hash(signingKey + agreementKey)
        do throws(WireError) {
            return try NodeID(bytes: Array(digest.prefix(NodeID.byteCount)))
        } catch {
            throw .wire(error)
        }
    }

    /// A fingerprint to read aloud: SHA-256("MeshNode fingerprint v1" ‖ signing ‖ agreement),
    /// bytes 0..<30 taken as six 40-bit big-endian numbers, each mod 100000 as five digits.
    public static func fingerprint(signingKey: [UInt8], agreementKey: [UInt8]) throws(CryptoError) -> String {
        try checkLengths(signingKey, agreementKey)
        let digest = try SHA256Digest.hash(Array("MeshNode fingerprint v1".utf8) + signingKey + agreementKey)
        let blocks = (0..<6).map { block in
            let value = digest[(block * 5)..<(block * 5 + 5)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let digits = String(value % 100_000)
            return String(repeating: "0", count: 5 - digits.count) + digits
        }
        return blocks.joined(separator: " ")
    }

    /// This node's profile, ready to sign and send.
    public func profile(displayName: String, icon: String, role: NodeRole) -> Profile {
        Profile(
            nodeID: nodeID, displayName: displayName, icon: icon, role: role,
            signingKey: signingPublicKey.x963, agreementKey: agreementPublicKey.x963)
    }

    private static func checkLengths(_ signingKey: [UInt8], _ agreementKey: [UInt8]) throws(CryptoError) {
        for key in [signingKey, agreementKey] where key.count != P256PublicKey.x963ByteCount {
            throw .invalidLength(field: "X9.63 public key", expected: P256PublicKey.x963ByteCount, actual: key.count)
        }
    }
}
