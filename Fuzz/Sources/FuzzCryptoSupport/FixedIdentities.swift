import MeshCrypto
import MeshProtocol

/// The identities of docs/PROTOCOL.md D11: A signs with 11…11 and agrees with 22…22, B with 33…33 and 44…44.
public enum FixedIdentities {
    /// Identity A.
    public static let a = identity(signing: 0x11, agreement: 0x22)
    /// Identity B.
    public static let b = identity(signing: 0x33, agreement: 0x44)

    private static func identity(signing: UInt8, agreement: UInt8) -> NodeIdentity {
        do {
            return try NodeIdentity(
                signingKey: P256SigningKey(rawRepresentation: [UInt8](repeating: signing, count: 32)),
                agreementKey: P256KeyAgreementKey(rawRepresentation: [UInt8](repeating: agreement, count: 32)))
        } catch {
            fatalError("fixed identity \(signing)/\(agreement): \(error)")
        }
    }

    /// A keyed pair of link sessions, A's and B's, from a handshake between A and B.
    ///
    /// The ephemeral keys are fresh per process, so packets sealed in one run do not open in another.
    public static func sessionPair(padding: PaddingPolicy = .buckets) -> (a: LinkSession, b: LinkSession) {
        do {
            var handshakeA = LinkHandshake(identity: a)
            var handshakeB = LinkHandshake(identity: b)
            guard case .hello(let opening)? = try handshakeA.start(now: .zero, timestamp: 1) else { fatalError("no opening") }
            let (reply, proofB) = try handshakeB.receive(hello: opening, now: .zero)
            guard let reply else { fatalError("B did not answer A's opening") }
            let (_, proofA) = try handshakeA.receive(hello: reply, now: .zero)
            let keysA = try handshakeA.receive(proof: proofB, now: .zero)
            let keysB = try handshakeB.receive(proof: proofA, now: .zero)
            return (LinkSession(keys: keysA, padding: padding), LinkSession(keys: keysB, padding: padding))
        } catch {
            fatalError("handshake between the fixed identities: \(error)")
        }
    }

    /// A profile envelope from `identity`, signed.
    public static func signedProfile(_ identity: NodeIdentity, kind: MessageKind = .profile) -> Envelope {
        let profile = identity.profile(displayName: "Hallway", icon: "📡", role: .relay)
        var envelope = Envelope(
            kind: kind, messageID: try! MessageID(bytes: [UInt8](repeating: 0xa1, count: 16)),
            origin: identity.nodeID, timestamp: 1_700_000_000_000, payload: profile.encoded())
        do { try EnvelopeSigner.sign(&envelope, with: identity) } catch { fatalError("signing: \(error)") }
        return envelope
    }
}
