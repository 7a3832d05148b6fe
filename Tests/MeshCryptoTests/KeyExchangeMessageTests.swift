import Testing
@testable import MeshCrypto

@Suite("Key exchange message")
struct KeyExchangeMessageTests {
    static func opening(from identity: NodeIdentity) throws -> KeyExchangeMessage {
        try KeyExchangeMessage.signed(
            by: identity, ephemeral: P256KeyAgreementKey().publicKey, answering: KeyExchangeMessage.opening,
            timestamp: 1_700_000_000_000)
    }

    @Test("Encodes to 300 bytes, decodes back, verifies to the sender's node ID")
    func roundTrip() throws {
        let identity = try NodeIdentity.generate()
        let message = try Self.opening(from: identity)
        let bytes = message.encoded()
        #expect(bytes.count == KeyExchangeMessage.encodedLength)
        let decoded = try KeyExchangeMessage(decoding: bytes)
        #expect(decoded == message)
        #expect(decoded.senderNodeID == identity.nodeID)
        #expect(try decoded.verify() == identity.nodeID)
        #expect(!decoded.isAnswer)
        #expect(decoded.timestamp == 1_700_000_000_000)
    }

    @Test("Wrong lengths and versions are typed errors")
    func badShapes() throws {
        let bytes = try Self.opening(from: NodeIdentity.generate()).encoded()
        #expect(throws: CryptoError.truncated(field: "key exchange", size: 0, minimum: 300)) {
            try KeyExchangeMessage(decoding: [])
        }
        #expect(throws: CryptoError.truncated(field: "key exchange", size: 299, minimum: 300)) {
            try KeyExchangeMessage(decoding: Array(bytes.dropLast()))
        }
        #expect(throws: CryptoError.tooLarge(field: "key exchange", size: 301, limit: 300)) {
            try KeyExchangeMessage(decoding: bytes + [0])
        }
        var versioned = bytes
        versioned[0] = 2
        #expect(throws: CryptoError.unsupportedVersion(2)) { try KeyExchangeMessage(decoding: versioned) }
    }

    @Test("Flipping any byte makes decoding or verification fail")
    func everyByteMatters() throws {
        let bytes = try Self.opening(from: NodeIdentity.generate()).encoded()
        var counters = CryptoCounters()
        for index in bytes.indices {
            do throws(CryptoError) {
                _ = try KeyExchangeMessage(decoding: flipping(bytes, at: index)).verify()
            } catch {
                counters.record(error)
            }
        }
        #expect(counters.totalFailures == UInt64(bytes.count))
        #expect(counters.badSignatures > 0 && counters.malformed > 0)
    }

    @Test("Identity keys swapped for another node's fail the signature check")
    func substitutedIdentity() throws {
        let genuine = try Self.opening(from: NodeIdentity.generate()).encoded()
        let other = try NodeIdentity.generate()
        let forged = Array(genuine[0..<66]) + other.signingPublicKey.x963 + other.agreementPublicKey.x963
            + Array(genuine[196...])
        let message = try KeyExchangeMessage(decoding: forged)
        #expect(message.senderNodeID == other.nodeID)
        #expect(throws: CryptoError.badSignature) { try message.verify() }
    }
}
