import MeshProtocol
import MQTTBridge
import Testing

@Suite struct MQTTTopicLayoutTests {
    static let node = NodeID(hex: "00112233445566778899aabbccddeeff")!

    @Test func buildsTheFiveTopicsUnderPrefixAndMesh() throws {
        let layout = try MQTTTopicLayout(prefix: "relaychat/v1", meshName: "hall-2")
        #expect(layout.name(of: .broadcast) == "relaychat/v1/hall-2/broadcast")
        #expect(layout.name(of: .joinNotice) == "relaychat/v1/hall-2/join")
        #expect(layout.name(of: .direct(Self.node)) == "relaychat/v1/hall-2/direct/00112233445566778899aabbccddeeff")
        #expect(layout.name(of: .keyRequest) == "relaychat/v1/hall-2/keyrequest")
        #expect(layout.name(of: .keyAnswer(Self.node)) == "relaychat/v1/hall-2/keyanswer/00112233445566778899aabbccddeeff")
        #expect(layout.subscriptions == [
            "relaychat/v1/hall-2/broadcast", "relaychat/v1/hall-2/join", "relaychat/v1/hall-2/direct/+",
            "relaychat/v1/hall-2/keyrequest", "relaychat/v1/hall-2/keyanswer/+",
        ])
    }

    @Test(arguments: [MQTTTopic.broadcast, .joinNotice, .direct(node), .keyRequest, .keyAnswer(node)])
    func parsesWhatItBuilds(topic: MQTTTopic) throws {
        let layout = try MQTTTopicLayout(meshName: "m")
        #expect(try layout.parse(layout.name(of: topic)) == topic)
    }

    @Test(arguments: [
        ("relaychat/v1/other/broadcast", MQTTTopicError.foreignTopic),
        ("relaychat/v1/m/broadcast/x", .unknownTopic),
        ("relaychat/v1/m/direct/00112233445566778899AABBCCDDEEFF", .unknownTopic),
        ("relaychat/v1/m/direct/0011", .unknownTopic),
        ("relaychat/v1/m/profile", .unknownTopic),
        ("relaychat/v1/m/keyrequest/x", .unknownTopic),
        ("relaychat/v1/m/keyanswer", .unknownTopic),
        ("relaychat/v1/m/keyanswer/00112233445566778899AABBCCDDEEFF", .unknownTopic),
        ("relaychat/v1/m/keyanswer/00112233445566778899aabbccddeeff0", .foreignTopic),
        ("relaychat/v1/m/" + String(repeating: "a", count: 500), .foreignTopic),
    ])
    func refusesTopicsOutsideTheLayout(name: String, error: MQTTTopicError) throws {
        let layout = try MQTTTopicLayout(meshName: "m")
        #expect(throws: error) { try layout.parse(name) }
    }

    @Test(arguments: ["", "a//b", "a/+", "#", "a b", "/a", String(repeating: "p", count: 65)])
    func refusesBadPrefixes(prefix: String) {
        #expect(throws: MQTTTopicError.invalidPrefix(prefix)) { try MQTTTopicLayout(prefix: prefix, meshName: "m") }
    }

    @Test(arguments: ["", "a/b", "+", "é", String(repeating: "m", count: 33)])
    func refusesBadMeshNames(name: String) {
        #expect(throws: MQTTTopicError.invalidMeshName(name)) { try MQTTTopicLayout(meshName: name) }
    }

    @Test func kindsThatCrossAndKindsThatDoNot() throws {
        let origin = try NodeID(bytes: Array(repeating: 1, count: 16))
        let broadcast = Envelope(kind: .message, messageID: try MessageID(bytes: Array(repeating: 2, count: 16)), origin: origin, timestamp: 1)
        var direct = broadcast
        direct.destination = Self.node
        var join = broadcast
        join.kind = .joinNotice
        var heartbeat = broadcast
        heartbeat.kind = .heartbeat
        #expect(MQTTTopic(for: broadcast) == .broadcast)
        #expect(MQTTTopic(for: direct) == .direct(Self.node))
        #expect(MQTTTopic(for: join) == .joinNotice)
        #expect(MQTTTopic(for: heartbeat) == nil)
        #expect(!MQTTTopic.broadcast.carries(direct))
        var request = broadcast
        request.kind = .keyRequest
        var answer = direct
        answer.kind = .keyAnswer
        answer.isInnerSealed = false
        var answerWithoutRequester = answer
        answerWithoutRequester.destination = nil
        #expect(MQTTTopic(for: request) == .keyRequest)
        #expect(MQTTTopic(for: answer) == .keyAnswer(Self.node))
        #expect(MQTTTopic(for: answerWithoutRequester) == nil)
        #expect(!MQTTTopic.keyAnswer(origin).carries(answer))
        #expect(MQTTTopic.keyRequest.isLookup && MQTTTopic.keyAnswer(origin).isLookup && !MQTTTopic.direct(origin).isLookup)
    }
}
