import Foundation
import MeshProtocol
import MQTTBridge
import Testing

/// docs/PROTOCOL.md Part F, "Vectors": the envelope of D11 ("hello mesh", signed by A) as gateway B
/// publishes it after hearing it straight from A, byte for byte.
@Suite struct BridgeVectorTests {
    static let nodeA = NodeID(hex: "2e0d7fe0175f5b4a799673df1034dab7")!
    static let nodeB = NodeID(hex: "b2bb79fbd6a5d47840046b61a0413fdf")!
    static let payloadHex =
        "01020401a0a1a2a3a4a5a6a7a8a9aaabacadaeaf2e0d7fe0175f5b4a799673df"
        + "1034dab70000018bcfe568000000000a68656c6c6f206d657368022e0d7fe017"
        + "5f5b4a799673df1034dab7b2bb79fbd6a5d47840046b61a0413fdfc07e52dcc6"
        + "cbf0d23586909f55b5f4ecddcc6422d74ebcd20f9877abe0331f7e6e19038274"
        + "8e5d2a203f9b371fe173077d3ac6eeab7c19f61cd06977f8c8d2e8"
    static let signatureHex =
        "c07e52dcc6cbf0d23586909f55b5f4ecddcc6422d74ebcd20f9877abe0331f7e"
        + "6e190382748e5d2a203f9b371fe173077d3ac6eeab7c19f61cd06977f8c8d2e8"

    static var envelope: Envelope {
        Envelope(
            kind: .message, messageID: MessageID(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")!, origin: nodeA, hops: 1,
            route: [nodeA, nodeB], timestamp: 1_700_000_000_000, payload: Array("hello mesh".utf8),
            signature: Hex.decode(signatureHex))
    }

    @Test func theAnnouncedMaximumPacketSizeIsPROTOCOLF1s() throws {
        #expect(DownlinkLimits().maxPacketBytes(layout: try MQTTTopicLayout(meshName: "hall-2")) == 66_631)
    }

    @Test func theGatewaysCopyIsTheDocumentedBytesOnTheDocumentedTopic() throws {
        let layout = try MQTTTopicLayout(prefix: "relaychat/v1", meshName: "hall-2")
        #expect(Hex.encode(Self.envelope.encoded()) == Self.payloadHex)
        #expect(layout.name(of: try #require(MQTTTopic(for: Self.envelope))) == "relaychat/v1/hall-2/broadcast")
        var direct = Self.envelope
        direct.destination = Self.nodeB
        #expect(layout.name(of: try #require(MQTTTopic(for: direct))) == "relaychat/v1/hall-2/direct/b2bb79fbd6a5d47840046b61a0413fdf")
        var gate = DownlinkAdmission(layout: layout, limits: DownlinkLimits(), now: .zero)
        let bytes = try #require(Hex.decode(Self.payloadHex))
        #expect(gate.admit(topic: "relaychat/v1/hall-2/broadcast", payload: bytes, now: .zero) == .admit(Self.envelope))
    }

    /// The H5 key request (B asks for A's key), as gateway B publishes its own request: hops 0, route [B].
    static let requestHex =
        "01060000a0a1a2a3a4a5a6a7a8a9aaabacadaeafb2bb79fbd6a5d47840046b61a0413fdf0000018bcfe5680000000019"
        + "012e0d7fe0175f5b4a799673df1034dab7010203040506070801b2bb79fbd6a5d47840046b61a0413fdf"

    @Test func aKeyRequestGoesOnTheRequestTopicAndItsAnswerOnTheRequestersTopic() throws {
        let layout = try MQTTTopicLayout(prefix: "relaychat/v1", meshName: "hall-2")
        let bytes = try #require(Hex.decode(Self.requestHex))
        let request = try Envelope(decoding: bytes)
        #expect(request.kind == .keyRequest && request.route == [Self.nodeB])
        let topic = layout.name(of: try #require(MQTTTopic(for: request)))
        #expect(topic == "relaychat/v1/hall-2/keyrequest")
        var answer = Envelope(kind: .keyAnswer, messageID: request.messageID, origin: Self.nodeA, destination: Self.nodeB, timestamp: 1)
        answer.route = [Self.nodeA]
        let answerTopic = layout.name(of: try #require(MQTTTopic(for: answer)))
        #expect(answerTopic == "relaychat/v1/hall-2/keyanswer/b2bb79fbd6a5d47840046b61a0413fdf")
        var gate = DownlinkAdmission(layout: layout, limits: DownlinkLimits(), now: .zero)
        #expect(gate.admit(topic: topic, payload: bytes, now: .zero) == .admit(request))
        #expect(gate.admit(topic: answerTopic, payload: bytes, now: .zero) == .drop(.topicMismatch))
        #expect(gate.admit(topic: "relaychat/v1/hall-2/keyanswer/2e0d7fe0175f5b4a799673df1034dab7", payload: answer.encoded(), now: .zero)
            == .drop(.topicMismatch))
        #expect(gate.admit(topic: answerTopic, payload: answer.encoded(), now: .zero) == .admit(answer))
        // PROTOCOL.md F6 states these very topics and bytes.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        let flat = document.filter { !$0.isWhitespace }
        #expect(document.contains("topic: \(topic)"))
        #expect(document.contains("topic: \(answerTopic)"))
        #expect(flat.contains(Self.requestHex))
    }
}
