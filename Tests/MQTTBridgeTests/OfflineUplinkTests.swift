import MeshProtocol
import MQTTBridge
import Testing

/// docs/PROTOCOL.md F3: while the broker is away, messages wait in the uplink queue and key
/// requests and answers do not (their lookups ask again; they must not push direct messages out).
@Suite struct OfflineUplinkTests {
    static let origin = NodeID(hex: "2e0d7fe0175f5b4a799673df1034dab7")!
    static let other = NodeID(hex: "b2bb79fbd6a5d47840046b61a0413fdf")!

    static func envelope(_ kind: MessageKind, to destination: NodeID?) -> Envelope {
        Envelope(
            kind: kind, messageID: MessageID(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")!, origin: origin, destination: destination,
            route: [origin], timestamp: 1_700_000_000_000)
    }

    @Test(arguments: [
        (MessageKind.keyRequest, false, UInt64(0), UInt64(1)),
        (.keyAnswer, true, 0, 1),
        (.message, true, 1, 0),
        (.message, false, 1, 0),
        (.joinNotice, false, 1, 0),
    ])
    func whatWaitsForTheBroker(kind: MessageKind, direct: Bool, queued: UInt64, droppedLookups: UInt64) throws {
        let configuration = MQTTBridgeConfiguration(
            layout: try MQTTTopicLayout(meshName: "m"), clientID: "meshnoded-test-offline-\(kind)")
        let bridge = try MQTTBridge(configuration: configuration, now: { .zero }, deliver: { _ in true })
        bridge.uplink(Self.envelope(kind, to: direct ? Self.other : nil))
        let counters = bridge.status.counters
        #expect(counters.queueDepth == queued)
        #expect(counters.droppedLookupOffline == droppedLookups)
        #expect(counters.published == 0)
    }
}
