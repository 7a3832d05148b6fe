import Flooding
import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol
import Testing

/// Key lookup across the MQTT bridge (docs/PROTOCOL.md F3, F4 and H3): two islands, each a plain
/// node A beside a gateway B, the broker played by hand.
@Suite struct BridgeLookupTests {
    static func islands() throws -> (near: EnginePair, far: EnginePair) {
        var gateway = EngineConfiguration()
        gateway.bridged = true
        gateway.bridgeRelayHold = .zero  // relayed at once: these tests hand the broker's copies over by hand
        let near = try EnginePair(configurationOfB: gateway)
        let far = try EnginePair(configurationOfB: gateway)
        near.advance(.seconds(1))
        far.advance(.seconds(1))
        #expect(near.bothReady && far.bothReady)
        near.uplinked.removeAll()
        far.uplinked.removeAll()
        return (near, far)
    }

    static func uplinked(_ pair: EnginePair, _ kind: MessageKind) -> [Envelope] {
        pair.uplinked.map(\.envelope).filter { $0.kind == kind }
    }

    /// A near node writes to a far node nobody in its island knows: the request goes up once, the far
    /// gateway answers up the bridge alone, the answer comes down to the near requester, the message
    /// crosses and is delivered once.
    @Test func aKeyIsFoundAcrossTheBridgeAndTheMessageDeliveredOnce() throws {
        let (near, far) = try Self.islands()
        let target = far.a.nodeID
        let (queued, actions) = try near.a.sendOrLookUp(text: "across islands", to: target, now: near.now)
        guard case .waitingForKey = queued else { throw Failure("the key should be unknown") }
        near.performAtA(actions)
        let requests = Self.uplinked(near, .keyRequest)
        try #require(requests.count == 1)
        #expect(requests[0].hops == 1 && requests[0].route == [near.a.nodeID, near.b.nodeID])

        // The far gateway holds A's profile: it answers, to the bridge alone, and relays nothing.
        far.performAtB(far.b.receiveBridged(try Envelope(decoding: requests[0].encoded()), now: far.now))
        far.advance(.milliseconds(250))
        let answers = Self.uplinked(far, .keyAnswer)
        try #require(answers.count == 1)
        #expect(answers[0].destination == near.a.nodeID && answers[0].route == [far.b.nodeID])
        #expect(far.a.kindCounters[.keyRequest].delivered == 0)
        #expect(far.a.kindCounters[.keyAnswer].delivered == 0)
        #expect(Self.uplinked(far, .keyRequest).isEmpty)

        // Down in the near island: checked, relayed back to the requester, never handed back up.
        near.performAtB(near.b.receiveBridged(try Envelope(decoding: answers[0].encoded()), now: near.now))
        #expect(near.a.knowsKey(of: target))
        #expect(near.a.lookupCounters.found == 1 && near.a.lookupCounters.messagesSentAfterLookup == 1)
        #expect(Self.uplinked(near, .keyAnswer).isEmpty)

        let directs = Self.uplinked(near, .message)
        try #require(directs.count == 1)
        #expect(directs[0].destination == target)
        let copy = try Envelope(decoding: directs[0].encoded())
        far.performAtB(far.b.receiveBridged(copy, now: far.now))
        far.performAtB(far.b.receiveBridged(copy, now: far.now))
        #expect(far.delivered.map(\.text) == ["across islands"])
    }

    @Test func anAnswerToNoRequestThisGatewayPublishedIsDroppedBeforeAnyCheck() throws {
        let (near, far) = try Self.islands()
        let (_, actions) = near.a.lookUp(far.a.nodeID, now: near.now)
        near.performAtA(actions)
        far.performAtB(far.b.receiveBridged(try #require(Self.uplinked(near, .keyRequest).first), now: far.now))
        far.advance(.milliseconds(250))
        let answer = try #require(Self.uplinked(far, .keyAnswer).first)
        // A third island's gateway published no such request.
        let (stranger, _) = try Self.islands()
        stranger.performAtB(stranger.b.receiveBridged(answer, now: stranger.now))
        #expect(stranger.b.lookupCounters.bridgedAnswersUnrequested == 1)
        #expect(stranger.b.kindCounters[.keyAnswer] == KindCounters())
        // The right gateway, but another tag: the same.
        var body = try KeyAnswerBody(decoding: answer.payload)
        body.tag &+= 1
        var retagged = answer
        retagged.payload = body.encoded()
        near.performAtB(near.b.receiveBridged(retagged, now: near.now))
        #expect(near.b.lookupCounters.bridgedAnswersUnrequested == 1)
        #expect(!near.a.knowsKey(of: far.a.nodeID))
        // Past the 30 s memory, even the genuine answer.
        near.now += .seconds(31)
        near.performAtB(near.b.receiveBridged(answer, now: near.now))
        #expect(near.b.lookupCounters.bridgedAnswersUnrequested == 2)
    }

    @Test func aRequestFromTheBrokerIsRelayedInTheIslandAndNeverHandedBack() throws {
        let (near, far) = try Self.islands()
        let (_, actions) = near.a.lookUp(NodeID(testIndex: 77), now: near.now)
        near.performAtA(actions)
        let request = try #require(Self.uplinked(near, .keyRequest).first)
        far.performAtB(far.b.receiveBridged(request, now: far.now))
        #expect(far.b.kindCounters[.keyRequest].received == 1, "a bridged request counts as received (F4 step 7)")
        #expect(far.a.kindCounters[.keyRequest].delivered == 1)
        #expect(far.a.lookupCounters.requestsOverBudget == 0)
        #expect(far.uplinked.isEmpty)
        far.performAtB(far.b.receiveBridged(request, now: far.now))
        #expect(far.b.kindCounters[.keyRequest].droppedSeen == 1)
        #expect(far.b.kindCounters[.keyRequest].received == 2)
    }

    /// All publishers on the broker share one neighbour's request budget (1 a second, 8 at once),
    /// whatever gateway each claims; the island's own neighbours keep the rest of the total.
    @Test func requestsFromTheBrokerShareOneNeighboursBudget() throws {
        let (near, far) = try Self.islands()
        let (_, actions) = near.a.lookUp(NodeID(testIndex: 78), now: near.now)
        near.performAtA(actions)
        let template = try #require(Self.uplinked(near, .keyRequest).first)
        for index in 0..<12 {
            var request = template
            request.messageID = try MessageID(bytes: [UInt8](repeating: 0x5A, count: 15) + [UInt8(index)])
            request.payload = KeyRequestBody(target: NodeID(testIndex: 900 + index), tag: UInt64(index)).encoded()
            request.route = [template.origin, NodeID(testIndex: 600 + index)]  // a gateway of its own each
            far.performAtB(far.b.receiveBridged(request, now: far.now))
        }
        #expect(far.b.lookupCounters.requestsOverBudget == 4)
        #expect(far.a.kindCounters[.keyRequest].delivered == 8)
        // A's own request still goes up through its gateway.
        let (_, own) = far.a.lookUp(NodeID(testIndex: 79), now: far.now)
        far.performAtA(own)
        #expect(Self.uplinked(far, .keyRequest).count == 1)
    }
}

private struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
