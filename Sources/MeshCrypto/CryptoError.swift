import MeshProtocol

/// Why a MeshCrypto operation failed. Every outside input that is rejected maps to one case.
public enum CryptoError: Error, Equatable, Sendable {
    /// An OpenSSL call reported failure; `function` names the call and `reason` is OpenSSL's text.
    case openSSL(function: String, reason: String)
    /// A fixed-size input (key, scalar, nonce, digest) had the wrong length.
    case invalidLength(field: String, expected: Int, actual: Int)
    /// A public key is malformed, off the P-256 curve, or the point at infinity.
    case invalidPublicKey
    /// A private scalar is zero, not below the group order, or otherwise unusable.
    case invalidPrivateKey
    /// A signature is not 64 raw bytes or not a DER ECDSA-Sig-Value.
    case malformedSignature
    /// A signature did not verify against the claimed key.
    case badSignature
    /// An envelope that must be signed carries no signature.
    case missingSignature
    /// AES-GCM authentication failed: ciphertext, tag, nonce, key or AAD differ from the sealer's.
    case authenticationFailed
    /// HKDF was asked for a number of output bytes outside 1...8160.
    case invalidOutputLength(Int)
    /// An input is larger than the limit for that field.
    case tooLarge(field: String, size: Int, limit: Int)
    /// A sealed or encoded value is shorter than its fixed layout.
    case truncated(field: String, size: Int, minimum: Int)
    /// The plaintext's padding is not a 0x80 marker followed only by zero bytes.
    case badPadding
    /// A link packet counter was already accepted or is older than the replay window.
    case replay(counter: UInt64)
    /// The link send counter is exhausted; the link must be rekeyed.
    case counterExhausted
    /// A structure carries a version byte this node does not speak.
    case unsupportedVersion(UInt8)
    /// Wire decoding of a protocol value failed.
    case wire(WireError)
    /// A profile's node ID is not the ID derived from the profile's own public keys.
    case idMismatch(claimed: NodeID, derived: NodeID)
    /// The envelope's origin is not the node the profile describes.
    case originMismatch(origin: NodeID, expected: NodeID)
    /// The envelope kind is not one this check accepts.
    case wrongKind(MessageKind)
    /// An inner-sealed box is addressed to a different node than this identity.
    case notAddressedToUs
    /// A key exchange carries this node's own identity (a reflected message).
    case reflectedKeyExchange
    /// An identity proof came when no private pairing was waiting for one.
    case unexpectedIdentityProof
}
