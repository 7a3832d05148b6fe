import MeshProtocol

/// Origin signatures on envelopes: raw ECDSA P-256/SHA-256 over `Envelope.signedBytes`.
public enum EnvelopeSigner {
    /// Sets `envelope.signature` to the signature of its `signedBytes` by `key`.
    public static func sign(_ envelope: inout Envelope, with key: P256SigningKey) throws(CryptoError) {
        envelope.signature = try key.signature(for: envelope.signedBytes)
    }

    /// Signs with an identity's signing key.
    public static func sign(_ envelope: inout Envelope, with identity: NodeIdentity) throws(CryptoError) {
        try sign(&envelope, with: identity.signingKey)
    }

    /// Throws `missingSignature` or `badSignature` unless `signingKey` signed the envelope.
    public static func verify(_ envelope: Envelope, signingKey: P256PublicKey) throws(CryptoError) {
        guard let signature = envelope.signature else { throw .missingSignature }
        guard signingKey.isValidSignature(signature, for: envelope.signedBytes) else { throw .badSignature }
    }

    /// True if `signingKey` signed the envelope.
    public static func isValid(_ envelope: Envelope, signingKey: P256PublicKey) -> Bool {
        (try? verify(envelope, signingKey: signingKey)) != nil
    }
}
