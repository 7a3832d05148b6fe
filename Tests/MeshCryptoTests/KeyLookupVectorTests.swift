import Foundation
import MeshProtocol
import Testing
@testable import MeshCrypto

/// The key request and key answer vectors of docs/PROTOCOL.md, section H5.
enum KeyLookupVectors {
    /// Identity A's profile envelope (name "A", no icon, relay), signed by A; its signature is
    /// one ECDSA draw, fixed here.
    static let profileEnvelope = hex(
        "01010400c0c1c2c3c4c5c6c7c8c9cacbcccdcecf2e0d7fe0175f5b4a799673df1034dab70000018bcfe568c8000000962e0d7fe0175f5b4a"
            + "799673df1034dab701410001040217e617f0b6443928278f96999e69a23a4f2c152bdf6d6cdf66e5b80282d4ed194a7debcb97712d"
            + "2dda3ca85aa8765a56f45fc758599652f2897c65306e579404d65a93977caa3d1b081852ff57a79e465f1660577304baead505dd3a"
            + "48589cf350185e895372df6221ea3a137557e473fddb6755f05bd507c3c533fce9c91285012e0d7fe0175f5b4a799673df1034dab7"
            + "bf0830f77a7bcd8bb34ca9806cc090a79e2b9c187c200c7742bf3571997495ff475ccfa22d9784cac96614260c89b3ec2708070df7"
            + "504ba4503de1505fa2061a")
    static let tag: UInt64 = 0x0102_0304_0506_0708
    static let nodeA = NodeID(hex: FixedVectors.nodeIDA)!
    static let nodeB = NodeID(hex: FixedVectors.nodeIDB)!

    /// B asks for A's profile.
    static var request: Envelope {
        Envelope(
            kind: .keyRequest, messageID: MessageID(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")!, origin: nodeB, route: [nodeB],
            timestamp: 1_700_000_000_000, payload: KeyRequestBody(target: nodeA, tag: tag).encoded())
    }

    /// A answers B with its signed profile.
    static var answer: Envelope {
        Envelope(
            kind: .keyAnswer, messageID: MessageID(hex: "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf")!, origin: nodeA, destination: nodeB,
            route: [nodeA], timestamp: 1_700_000_000_250,
            payload: KeyAnswerBody(tag: tag, target: nodeA, profileEnvelope: profileEnvelope).encoded())
    }
}

/// docs/PROTOCOL.md without white space.
private let protocolText: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let text = (try? String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)) ?? ""
    return text.filter { !$0.isWhitespace }
}()

@Suite("Key lookup vectors (docs/PROTOCOL.md, section H5)")
struct KeyLookupVectorTests {
    @Test("The published request and answer are what the codec writes, and decode back", arguments: ["request", "answer"])
    func published(name: String) throws {
        let envelope = name == "request" ? KeyLookupVectors.request : KeyLookupVectors.answer
        let hex = Hex.encode(envelope.encoded())
        let published = protocolText.contains(hex)
        #expect(published, "the \(name) vector is not in docs/PROTOCOL.md")
        #expect(try Envelope(decoding: envelope.encoded()) == envelope)
    }

    @Test("The answer's embedded profile verifies as A's, and a changed byte anywhere in it does not")
    func answerVerifies() throws {
        let body = try KeyAnswerBody(decoding: KeyLookupVectors.answer.payload)
        let profile = try ProfileVerifier.verify(try body.profile())
        #expect(profile.nodeID == KeyLookupVectors.nodeA)
        #expect(body.tag == KeyLookupVectors.tag)
        for index in stride(from: 4, to: KeyLookupVectors.profileEnvelope.count, by: 7) where !(3...3).contains(index) {
            var bytes = KeyLookupVectors.profileEnvelope
            bytes[index] ^= 0x01
            let changed = KeyAnswerBody(tag: body.tag, target: body.target, profileEnvelope: bytes)
            let accepted = (try? ProfileVerifier.verify(try changed.profile())) != nil
            #expect(!accepted, "byte \(index) changed and still verified")
        }
    }

    @Test("Bodies refuse wrong versions, lengths and embedded envelopes")
    func refusals() throws {
        var request = KeyRequestBody(target: KeyLookupVectors.nodeA, tag: 1).encoded()
        #expect(throws: WireError.trailingBytes(1)) { try KeyRequestBody(decoding: request + [0]) }
        request[0] = 2
        #expect(throws: WireError.unsupportedVersion(2)) { try KeyRequestBody(decoding: request) }
        let long = KeyAnswerBody(tag: 1, target: KeyLookupVectors.nodeA, profileEnvelope: Array(repeating: 0, count: 513)).encoded()
        #expect(throws: WireError.lengthOutOfRange(field: "profileEnvelope", value: 513, limit: 512)) {
            try KeyAnswerBody(decoding: long)
        }
        let otherTarget = KeyAnswerBody(tag: 1, target: KeyLookupVectors.nodeB, profileEnvelope: KeyLookupVectors.profileEnvelope)
        #expect(throws: WireError.invalidField("answer envelope")) { try otherTarget.profile() }
    }
}

