import MeshProtocol
import Testing
@testable import MeshCrypto

@Suite("Envelope signatures and profile verification")
struct SignatureTests {
    static func signedProfile(_ identity: NodeIdentity, kind: MessageKind = .joinNotice) throws -> Envelope {
        var envelope = Envelope(
            kind: kind, messageID: messageID(5), origin: identity.nodeID, timestamp: 1_700_000_000_000,
            payload: identity.profile(displayName: "relay", icon: "📡", role: .relay).encoded())
        try EnvelopeSigner.sign(&envelope, with: identity)
        return envelope
    }

    @Test("Signed envelopes verify; relays may change hops and route")
    func signAndVerify() throws {
        let identity = try NodeIdentity.generate()
        var envelope = Envelope(
            kind: .message, messageID: messageID(1), origin: identity.nodeID, destination: nodeID(2), timestamp: 42,
            payload: [1, 2, 3])
        #expect(throws: CryptoError.missingSignature) { try EnvelopeSigner.verify(envelope, signingKey: identity.signingPublicKey) }
        try EnvelopeSigner.sign(&envelope, with: identity)
        #expect(envelope.signature?.count == 64)
        try EnvelopeSigner.verify(envelope, signingKey: identity.signingPublicKey)
        let decoded = try Envelope(decoding: envelope.encoded())
        #expect(EnvelopeSigner.isValid(decoded, signingKey: identity.signingPublicKey))
        envelope.hops = 3
        envelope.route = [identity.nodeID, nodeID(7)]
        #expect(EnvelopeSigner.isValid(envelope, signingKey: identity.signingPublicKey))
        #expect(!EnvelopeSigner.isValid(envelope, signingKey: try P256SigningKey().publicKey))
    }

    @Test("Changing any signed field or flipping any signature byte fails, each counted")
    func tampering() throws {
        let identity = try NodeIdentity.generate()
        var envelope = Envelope(
            kind: .message, messageID: messageID(1), origin: identity.nodeID, destination: nodeID(2), timestamp: 42,
            isInnerSealed: true, payload: [1, 2, 3])
        try EnvelopeSigner.sign(&envelope, with: identity)
        var variants: [Envelope] = []
        for index in 0..<64 {
            var copy = envelope
            copy.signature = flipping(envelope.signature ?? [], at: index)
            variants.append(copy)
        }
        let edits: [(inout Envelope) -> Void] = [
            { $0.kind = .heartbeat }, { $0.messageID = messageID(9) }, { $0.origin = nodeID(9) },
            { $0.destination = nodeID(3) }, { $0.destination = nil }, { $0.timestamp += 1 },
            { $0.isInnerSealed = false }, { $0.payload = [1, 2, 4] }, { $0.payload = [] },
        ]
        for edit in edits {
            var copy = envelope
            edit(&copy)
            variants.append(copy)
        }
        var counters = CryptoCounters()
        for variant in variants {
            do throws(CryptoError) {
                try EnvelopeSigner.verify(variant, signingKey: identity.signingPublicKey)
            } catch {
                counters.record(error)
            }
        }
        #expect(counters.badSignatures == UInt64(variants.count))
    }

    @Test("A genuine profile or join notice verifies", arguments: [MessageKind.profile, .joinNotice])
    func genuine(_ kind: MessageKind) throws {
        let identity = try NodeIdentity.generate()
        let profile = try ProfileVerifier.verify(Self.signedProfile(identity, kind: kind))
        #expect(profile.nodeID == identity.nodeID && profile.displayName == "relay")
    }

    @Test("A relay that substitutes its own key in a join notice is caught by ID mismatch")
    func substitutedKey() throws {
        let victim = try NodeIdentity.generate()
        let relay = try NodeIdentity.generate()
        var envelope = try Self.signedProfile(victim)
        var profile = try Profile(decoding: envelope.payload)
        profile.agreementKey = relay.agreementPublicKey.x963
        envelope.payload = profile.encoded()
        try EnvelopeSigner.sign(&envelope, with: relay)
        let derived = try NodeIdentity.deriveNodeID(signingKey: profile.signingKey, agreementKey: profile.agreementKey)
        #expect(throws: CryptoError.idMismatch(claimed: victim.nodeID, derived: derived)) { try ProfileVerifier.verify(envelope) }
        profile.signingKey = relay.signingPublicKey.x963
        envelope.payload = profile.encoded()
        try EnvelopeSigner.sign(&envelope, with: relay)
        #expect(throws: CryptoError.idMismatch(claimed: victim.nodeID, derived: relay.nodeID)) { try ProfileVerifier.verify(envelope) }
    }

    @Test("Wrong origin, foreign signature, wrong kind, bad payload and bad keys are typed errors")
    func otherFailures() throws {
        let identity = try NodeIdentity.generate()
        let genuine = try Self.signedProfile(identity)
        var moved = genuine
        moved.origin = nodeID(1)
        #expect(throws: CryptoError.originMismatch(origin: nodeID(1), expected: identity.nodeID)) { try ProfileVerifier.verify(moved) }
        var foreign = genuine
        try EnvelopeSigner.sign(&foreign, with: NodeIdentity.generate())
        #expect(throws: CryptoError.badSignature) { try ProfileVerifier.verify(foreign) }
        var unsigned = genuine
        unsigned.signature = nil
        #expect(throws: CryptoError.missingSignature) { try ProfileVerifier.verify(unsigned) }
        var message = genuine
        message.kind = .message
        #expect(throws: CryptoError.wrongKind(.message)) { try ProfileVerifier.verify(message) }
        var garbage = genuine
        garbage.payload = [1, 2, 3]
        #expect(throws: CryptoError.wire(.truncated(needed: 16, remaining: 3))) { try ProfileVerifier.verify(garbage) }
        var offCurve = genuine
        var profile = try Profile(decoding: genuine.payload)
        profile.signingKey = [0x04] + [UInt8](repeating: 0, count: 64)
        offCurve.payload = profile.encoded()
        #expect(throws: CryptoError.invalidPublicKey) { try ProfileVerifier.verify(offCurve) }
    }
}
