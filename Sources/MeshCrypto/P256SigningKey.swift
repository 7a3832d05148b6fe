/// A P-256 ECDSA signing private key (CryptoKit `P256.Signing.PrivateKey`).
public struct P256SigningKey: Sendable {
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

    /// Signs SHA-256(`message`) and returns the raw 64-byte `r ‖ s` signature
    /// (CryptoKit `signature(for:).rawRepresentation`). ECDSA signatures are randomized.
    public func signature(for message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try ECDSASignature.raw(fromDER: core.signDER(message))
    }
}
