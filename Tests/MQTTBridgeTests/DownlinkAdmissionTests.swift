import MeshProtocol
import MQTTBridge
import Testing

@Suite struct DownlinkAdmissionTests {
    static let layout = try! MQTTTopicLayout(meshName: "m")

    static func envelope(gateway: UInt8, serial: UInt8 = 0, destination: NodeID? = nil) -> Envelope {
        let origin = try! NodeID(bytes: Array(repeating: 0xA0, count: 16))
        let relay = try! NodeID(bytes: Array(repeating: gateway, count: 16))
        return Envelope(
            kind: .message, messageID: try! MessageID(bytes: Array(repeating: serial, count: 16)), origin: origin,
            destination: destination, hops: 1, route: [origin, relay], timestamp: 1, payload: [1, 2, 3],
            signature: Array(repeating: 0, count: 64))
    }

    static let broadcastTopic = "relaychat/v1/m/broadcast"

    @Test func admitsAWellFormedEnvelopeOnItsTopic() {
        var gate = DownlinkAdmission(layout: Self.layout, limits: DownlinkLimits(), now: .zero)
        let envelope = Self.envelope(gateway: 1)
        #expect(gate.admit(topic: Self.broadcastTopic, payload: envelope.encoded(), now: .zero) == .admit(envelope))
        #expect(gate.admitted == 1)
    }

    @Test(arguments: [
        ("relaychat/v1/x/broadcast", [], DownlinkDropCause.badTopic),
        ("relaychat/v1/m/broadcast", [1, 2, 3], .malformed),
        ("relaychat/v1/m/join", envelope(gateway: 1).encoded(), .topicMismatch),
        ("relaychat/v1/m/direct/a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0", envelope(gateway: 1).encoded(), .topicMismatch),
    ])
    func refusesAndCountsByCause(topic: String, payload: [UInt8], cause: DownlinkDropCause) {
        var gate = DownlinkAdmission(layout: Self.layout, limits: DownlinkLimits(), now: .zero)
        #expect(gate.admit(topic: topic, payload: payload, now: .zero) == .drop(cause))
        #expect(gate.dropped[cause] == 1)
        #expect(gate.admitted == 0)
    }

    @Test func anEnvelopeTheEngineHadNoRoomForLeavesAdmittedForInboxFull() {
        var gate = DownlinkAdmission(layout: Self.layout, limits: DownlinkLimits(), now: .zero)
        for serial in UInt8(0)..<3 {
            _ = gate.admit(topic: Self.broadcastTopic, payload: Self.envelope(gateway: 1, serial: serial).encoded(), now: .zero)
        }
        gate.refuseAdmitted(.inboxFull)
        #expect(gate.admitted == 2)
        #expect(gate.dropped[.inboxFull] == 1)
        #expect(gate.admitted + gate.dropped.values.reduce(0, +) == 3)
    }

    @Test(arguments: [("relaychat/v1", "m"), ("a/b/c", "hall-2"), (String(repeating: "p", count: 64), String(repeating: "m", count: 32))])
    func theAnnouncedPacketSizeHoldsTheLongestPayloadOnTheLongestTopicAndNoMore(prefix: String, mesh: String) throws {
        let layout = try MQTTTopicLayout(prefix: prefix, meshName: mesh)
        let limits = DownlinkLimits()
        let node = try NodeID(bytes: Array(repeating: 0xAB, count: 16))
        let topics: [MQTTTopic] = [.broadcast, .joinNotice, .direct(node), .keyRequest, .keyAnswer(node)]
        let longestTopic = topics.map { layout.name(of: $0).utf8.count }.max()!
        let packet = Int(limits.maxPacketBytes(layout: layout))
        #expect(packet == limits.maxPayloadBytes + longestTopic + DownlinkLimits.packetOverheadBytes)
        #expect(packet < 2 * limits.maxPayloadBytes)
    }

    @Test func decidesStraightFromTheClientsBufferWithoutACopy() {
        var gate = DownlinkAdmission(layout: Self.layout, limits: DownlinkLimits(), now: .zero)
        let envelope = Self.envelope(gateway: 1)
        let verdict = envelope.encoded().withUnsafeBytes { gate.admit(topic: Self.broadcastTopic, payload: $0, now: .zero) }
        #expect(verdict == .admit(envelope))
    }

    @Test func refusesAPayloadLongerThanTheBound() {
        var gate = DownlinkAdmission(layout: Self.layout, limits: DownlinkLimits(maxPayloadBytes: 100), now: .zero)
        #expect(gate.admit(topic: Self.broadcastTopic, payload: [UInt8](repeating: 7, count: 101), now: .zero) == .drop(.oversized))
        #expect(gate.dropped[.oversized] == 1)
    }

    @Test func oneGatewaySpendsOnlyItsShareAndOthersStillGetIn() {
        let limits = DownlinkLimits(gatewayMessagesPerSecond: 1, gatewayBurst: 5, totalMessagesPerSecond: 100, totalBurst: 100)
        var gate = DownlinkAdmission(layout: Self.layout, limits: limits, now: .zero)
        let flood = Self.envelope(gateway: 9).encoded()
        let verdicts = (0..<50).map { _ in gate.admit(topic: Self.broadcastTopic, payload: flood, now: .zero) }
        #expect(verdicts.filter { $0 == .drop(.overGatewayShare) }.count == 45)
        #expect(gate.admit(topic: Self.broadcastTopic, payload: Self.envelope(gateway: 2).encoded(), now: .zero) != .drop(.overGatewayShare))
        // A second later the flooding gateway has one more token.
        #expect(gate.admit(topic: Self.broadcastTopic, payload: flood, now: .seconds(1)) == .admit(Self.envelope(gateway: 9)))
    }

    @Test func mintedGatewayIDsShareOneOverflowShareAndTheTotalBoundsAll() {
        let limits = DownlinkLimits(gatewayMessagesPerSecond: 1, gatewayBurst: 2, totalMessagesPerSecond: 1, totalBurst: 20, maxGateways: 4)
        var gate = DownlinkAdmission(layout: Self.layout, limits: limits, now: .zero)
        var admitted = 0
        for gateway in 1...200 {
            if case .admit = gate.admit(topic: Self.broadcastTopic, payload: Self.envelope(gateway: UInt8(gateway)).encoded(), now: .zero) {
                admitted += 1
            }
        }
        #expect(gate.gatewayCount == 4)
        #expect(admitted == 4 + 2)  // one each for the four with a share, and the overflow share's burst
        #expect(admitted <= 20)
    }

    @Test("A share idle for the timeout goes to a gateway heard later; one that keeps publishing keeps its share",
          arguments: [(Duration.seconds(599), false), (.seconds(600), true), (.seconds(86_400), true)])
    func idleSharesGoToNewGateways(later: Duration, newGatewayGetsAShare: Bool) {
        let limits = DownlinkLimits(gatewayMessagesPerSecond: 1, gatewayBurst: 2, totalMessagesPerSecond: 1000, totalBurst: 1000, maxGateways: 4)
        var gate = DownlinkAdmission(layout: Self.layout, limits: limits, now: .zero)
        // Gateways 1-4 take the four shares; gateway 1 keeps publishing, 2-4 fall silent.
        for gateway in 1...4 { _ = gate.admit(topic: Self.broadcastTopic, payload: Self.envelope(gateway: UInt8(gateway)).encoded(), now: .zero) }
        _ = gate.admit(topic: Self.broadcastTopic, payload: Self.envelope(gateway: 1, serial: 1).encoded(), now: later - .seconds(1))
        // The overflow share is spent by gateway 9, so only a share of its own lets gateway 5 in.
        for serial in 0..<2 { _ = gate.admit(topic: Self.broadcastTopic, payload: Self.envelope(gateway: 9, serial: UInt8(serial)).encoded(), now: later) }
        let verdict = gate.admit(topic: Self.broadcastTopic, payload: Self.envelope(gateway: 5).encoded(), now: later)
        #expect((verdict == .admit(Self.envelope(gateway: 5))) == newGatewayGetsAShare)
        #expect(gate.idleReleased == (newGatewayGetsAShare ? 2 : 0))  // gateway 9's share too
        #expect(gate.gatewayCount == 4)
        // Gateway 1, heard a second before, still has its own share.
        #expect(gate.admit(topic: Self.broadcastTopic, payload: Self.envelope(gateway: 1, serial: 2).encoded(), now: later) == .admit(Self.envelope(gateway: 1, serial: 2)))
    }
}
