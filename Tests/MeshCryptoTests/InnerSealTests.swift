import MeshProtocol
import Testing
@testable import MeshCrypto

@Suite("Inner seal")
struct InnerSealTests {
    let text = Array("meet at the north gate".utf8)

    @Test("Seals to the destination's agreement key and opens there only")
    func roundTrip() throws {
        let origin = try NodeIdentity.generate()
        let destination = try NodeIdentity.generate()
        let box = try InnerSeal.seal(
            text, recipientAgreementKey: destination.agreementPublicKey, origin: origin.nodeID,
            destination: destination.nodeID, messageID: messageID(1), kind: .message)
        #expect(box.count == 65 + 12 + 32 + 16)
        #expect(try InnerSeal.open(
            box, identity: destination, origin: origin.nodeID, destination: destination.nodeID, messageID: messageID(1),
            kind: .message) == text)
        #expect(throws: CryptoError.notAddressedToUs) {
            try InnerSeal.open(
                box, identity: origin, origin: origin.nodeID, destination: destination.nodeID, messageID: messageID(1),
                kind: .message)
        }
        let stranger = try NodeIdentity.generate()
        #expect(throws: CryptoError.authenticationFailed) {
            try InnerSeal.open(
                box, identity: stranger, origin: origin.nodeID, destination: stranger.nodeID, messageID: messageID(1),
                kind: .message)
        }
    }

    @Test("Flipping any byte of the box or changing any AAD field fails, each counted")
    func tampering() throws {
        let origin = try NodeIdentity.generate()
        let destination = try NodeIdentity.generate()
        let box = try InnerSeal.seal(
            text, recipientAgreementKey: destination.agreementPublicKey, origin: origin.nodeID,
            destination: destination.nodeID, messageID: messageID(1), kind: .message, padding: .minimal)
        var counters = CryptoCounters()
        func attempt(_ box: [UInt8], origin: NodeID, messageID: MessageID, kind: MessageKind) {
            do throws(CryptoError) {
                _ = try InnerSeal.open(
                    box, identity: destination, origin: origin, destination: destination.nodeID, messageID: messageID,
                    kind: kind)
                counters.opened += 1
            } catch {
                counters.record(error)
            }
        }
        for index in box.indices { attempt(flipping(box, at: index), origin: origin.nodeID, messageID: messageID(1), kind: .message) }
        attempt(box, origin: nodeID(9), messageID: messageID(1), kind: .message)
        attempt(box, origin: origin.nodeID, messageID: messageID(2), kind: .message)
        attempt(box, origin: origin.nodeID, messageID: messageID(1), kind: .profile)
        // Same agreement key, different signing key: a different node ID as destination.
        let twin = try NodeIdentity(signingKey: P256SigningKey(), agreementKey: destination.agreementKey)
        do throws(CryptoError) {
            _ = try InnerSeal.open(
                box, identity: twin, origin: origin.nodeID, destination: twin.nodeID, messageID: messageID(1), kind: .message)
            counters.opened += 1
        } catch {
            counters.record(error)
        }
        #expect(counters.opened == 0)
        #expect(counters.totalFailures == UInt64(box.count + 4))
        #expect(counters.authenticationFailures >= 4)
    }

    @Test("Short and oversized boxes are typed errors; the seal stays within an envelope payload")
    func bounds() throws {
        let identity = try NodeIdentity.generate()
        #expect(throws: CryptoError.truncated(field: "inner box", size: 93, minimum: 94)) {
            try InnerSeal.open(
                [UInt8](repeating: 4, count: 93), identity: identity, origin: nodeID(1), destination: identity.nodeID,
                messageID: messageID(1), kind: .message)
        }
        let largest = Envelope.maxPayloadLength - InnerSeal.overhead - 1
        let box = try InnerSeal.seal(
            [UInt8](repeating: 1, count: largest), recipientAgreementKey: identity.agreementPublicKey, origin: nodeID(1),
            destination: identity.nodeID, messageID: messageID(1), kind: .message)
        #expect(box.count == Envelope.maxPayloadLength)
        #expect(throws: CryptoError.tooLarge(field: "padded plaintext", size: largest + 2, limit: largest + 1)) {
            try InnerSeal.seal(
                [UInt8](repeating: 1, count: largest + 1), recipientAgreementKey: identity.agreementPublicKey,
                origin: nodeID(1), destination: identity.nodeID, messageID: messageID(1), kind: .message)
        }
    }
}
