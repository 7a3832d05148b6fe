import MeshCrypto
import MeshProtocol

/// Why a message or join notice failed its origin checks.
enum VerificationFailure: Error, Equatable {
    /// The origin ID does not match the keys carried with it.
    case originMismatch
    /// The origin's signature does not verify.
    case badSignature
    /// The envelope carries no signature.
    case unsigned
    /// A carried public key is not a valid P-256 point.
    case badKey
}

/// A sender's public keys, checked against its self-certifying node ID.
struct OriginKeys {
    let signing: P256PublicKey
    let agreement: P256PublicKey

    init(body: ChatBody, origin: NodeID) throws {
        do {
            signing = try P256PublicKey(compressed: body.signingKey)
            agreement = try P256PublicKey(compressed: body.agreementKey)
        } catch {
            throw VerificationFailure.badKey
        }
        guard (try? NodeIdentity.deriveNodeID(signingKey: signing.x963, agreementKey: agreement.x963)) == origin else {
            throw VerificationFailure.originMismatch
        }
    }
}

/// What could be verified about a flooded envelope before relaying it.
enum Verified {
    /// A join notice whose profile and signature check out.
    case joinNotice(Profile)
    /// A broadcast message whose body keys and signature check out.
    case broadcast(ChatBody, OriginKeys)
    /// A direct message for us: opened and verified at delivery.
    case sealedForUs
    /// A direct message for another node: relays carry it opaque.
    case sealedForSomeoneElse
    /// A key request (unsigned: only its shape is checked).
    case keyRequest(KeyRequestBody)
    /// A key answer whose embedded profile checks out: the body, the profile and its signed envelope.
    case keyAnswer(KeyAnswerBody, Profile, Envelope)
}

extension MeshEngine {
    /// Verifies what a relay can verify: join notices, broadcasts and key answers fully, key
    /// requests by shape, direct
    /// messages only by shape (their signature covers the sealed payload, checked at the
    /// destination with keys inside the seal).
    func verify(_ envelope: Envelope) throws -> Verified {
        switch envelope.kind {
        case .keyRequest:
            guard envelope.destination == nil, envelope.signature == nil else { throw VerificationFailure.badKey }
            return .keyRequest(try KeyRequestBody(decoding: envelope.payload))
        case .keyAnswer:
            guard envelope.destination != nil, !envelope.isInnerSealed, envelope.signature == nil else {
                throw VerificationFailure.badKey
            }
            let body = try KeyAnswerBody(decoding: envelope.payload)
            let signed = try body.profile()
            let profile = try ProfileVerifier.verify(signed)
            return .keyAnswer(body, profile, signed)
        default:
            break
        }
        guard envelope.signature != nil else { throw VerificationFailure.unsigned }
        switch envelope.kind {
        case .joinNotice:
            return .joinNotice(try ProfileVerifier.verify(envelope))
        case .message where envelope.destination == nil:
            guard !envelope.isInnerSealed else { throw VerificationFailure.badKey }
            let body = try ChatBody(decoding: envelope.payload)
            let keys = try originKeys.keys(for: body, origin: envelope.origin)
            guard skipsSignatureChecksForBenchmark || EnvelopeSigner.isValid(envelope, signingKey: keys.signing) else {
                throw VerificationFailure.badSignature
            }
            return .broadcast(body, keys)
        case .message:
            guard envelope.isInnerSealed else { throw VerificationFailure.badKey }
            return envelope.destination == nodeID ? .sealedForUs : .sealedForSomeoneElse
        default:
            throw VerificationFailure.unsigned
        }
    }
}
