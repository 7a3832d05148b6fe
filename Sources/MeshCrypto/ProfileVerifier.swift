import MeshProtocol

/// Checks signed profile and join-notice envelopes: the self-certifying ID, the origin, the signature.
public enum ProfileVerifier {
    /// Returns the profile carried by `envelope` if, in this order: the kind is profile or
    /// join notice; the payload decodes; both keys are valid P-256 points; the profile's node
    /// ID equals the ID derived from its keys (`idMismatch` — a substituted key fails here);
    /// the envelope's origin is that node (`originMismatch`); and the profile's signing key
    /// signed the envelope (`missingSignature`/`badSignature`).
    public static func verify(_ envelope: Envelope) throws(CryptoError) -> Profile {
        guard envelope.kind == .profile || envelope.kind == .joinNotice else { throw .wrongKind(envelope.kind) }
        let profile: Profile
        do throws(WireError) {
            profile = try Profile(decoding: envelope.payload)
        } catch {
            throw .wire(error)
        }
        let signingKey = try P256PublicKey(x963: profile.signingKey)
        _ = try P256PublicKey(x963: profile.agreementKey)
        let derived = try NodeIdentity.deriveNodeID(signingKey: profile.signingKey, agreementKey: profile.agreementKey)
        guard derived == profile.nodeID else { throw .idMismatch(claimed: profile.nodeID, derived: derived) }
        guard envelope.origin == profile.nodeID else {
            throw .originMismatch(origin: envelope.origin, expected: profile.nodeID)
        }
        try EnvelopeSigner.verify(envelope, signingKey: signingKey)
        return profile
    }
}
