import Foundation
import MeshProtocol
import Testing
@testable import MeshCrypto

/// docs/PROTOCOL.md, with all white space removed, so hex split over lines still matches.
private let protocolDocument: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let text = (try? String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)) ?? ""
    return text.filter { !$0.isWhitespace }
}()

@Suite("docs/PROTOCOL.md publishes the vectors the tests check")
struct ProtocolDocumentTests {
    @Test("Every fixed crypto vector appears in the document", arguments: [
        ("signing public A", FixedVectors.signingPublicA), ("agreement public A", FixedVectors.agreementPublicA),
        ("signing public B", FixedVectors.signingPublicB), ("agreement public B", FixedVectors.agreementPublicB),
        ("ephemeral A", FixedVectors.ephemeralPublicA), ("ephemeral B", FixedVectors.ephemeralPublicB),
        ("inner ephemeral", FixedVectors.innerEphemeralPublic), ("identity file", FixedVectors.identityFileA),
        ("key exchange A", FixedVectors.keyExchangeA), ("key exchange B", FixedVectors.keyExchangeB),
        ("link secret", FixedVectors.linkSecret), ("key A to B", FixedVectors.keyAToB),
        ("key B to A", FixedVectors.keyBToA), ("link packet", FixedVectors.linkPacket),
        ("inner box", FixedVectors.innerBox), ("envelope signature", FixedVectors.envelopeSignature),
        ("hello A", FixedVectors.helloA), ("hello B", FixedVectors.helloB), ("proof key A", FixedVectors.proofKeyA),
        ("proof key B", FixedVectors.proofKeyB), ("proof signature A", FixedVectors.proofSignatureA),
        ("proof A", FixedVectors.proofA), ("private key A to B", FixedVectors.privateKeyAToB),
        ("private key B to A", FixedVectors.privateKeyBToA), ("opaque link packet", FixedVectors.opaqueLinkPacket),
        ("opaque acknowledgement", FixedVectors.opaqueAcknowledgementPacket),
    ])
    func vectorIsPublished(name: String, bytes: [UInt8]) {
        #expect(!protocolDocument.isEmpty)
        let published = protocolDocument.contains(Hex.encode(bytes))
        #expect(published, "\(name) is not in docs/PROTOCOL.md")
    }

    @Test("The envelope examples of section A1 are what the codec writes")
    func envelopeExamples() throws {
        let origin = try NodeID(bytes: Array(repeating: 0xA1, count: 16))
        let relay = try NodeID(bytes: Array(repeating: 0xB2, count: 16))
        let destination = try NodeID(bytes: Array(repeating: 0xC3, count: 16))
        let id = try MessageID(bytes: Array(0x10...0x1F))
        let heartbeat = Envelope(kind: .heartbeat, messageID: id, origin: origin, route: [origin], timestamp: 1_767_225_600_000)
        let direct = Envelope(
            kind: .message, messageID: id, origin: origin, destination: destination, hops: 1, route: [origin, relay],
            timestamp: 1_767_225_600_000, isInnerSealed: true, payload: [0xEE, 0xEE, 0xEE, 0xEE])
        let heartbeatPublished = protocolDocument.contains(Hex.encode(heartbeat.encoded()))
        let directPublished = protocolDocument.contains(Hex.encode(direct.encoded()))
        #expect(heartbeatPublished)
        #expect(directPublished)
    }
}
