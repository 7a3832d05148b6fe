/// A P-256 key-agreement private key (CryptoKit `P256.KeyAgreement.PrivateKey`).
public struct P256KeyAgreementKey: Sendable {
    let core: P256PrivateKey

    /// Generates a new key from the system CSPRNG.
    public init() throws(CryptoError) { core = try .generate() }

    /// Imports a 32-byte big-endian private scalar (CryptoKit `init(rawRepresentation:)`).
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        core = try P256PrivateKey(rawRepresentation: rawRepresentation)
    }

    /// The matching public key.
    public var publicKey: P256PublicKey { core.publicKey }

    /// The 32-byte private scalar (CryptoKit `rawRepresentation`). Handle with care.
    public func rawRepresentation() throws(CryptoError) -> [UInt8] { try core.rawRepresentation() }

    /// ECDH with `peer`: the 32-byte shared x-coordinate
    /// (CryptoKit `sharedSecretFromKeyAgreement(with:)`).
    public func sharedSecret(with peer: P256PublicKey) throws(CryptoError) -> [UInt8] {
        try core.sharedSecret(with: peer)
    }
}
