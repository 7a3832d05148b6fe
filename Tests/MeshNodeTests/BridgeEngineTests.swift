import Flooding
import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol
import Testing

/// Two islands (two engine pairs, A the origin side, B the gateway), the broker played by hand:
/// what B of one island hands the bridge is given to B of the other (docs/PROTOCOL.md Part F).
@Suite struct BridgeEngineTests {
    static var bridged: EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.bridged = true
        configuration.bridgeRelayHold = .zero  // relayed at once: these tests hand the broker's copies over by hand
        return configuration
    }

    static func islands() throws -> (EnginePair, EnginePair) {
        let near = try EnginePair(configuration: bridged)
        let far = try EnginePair(configuration: bridged)
        near.advance(.seconds(1))
        far.advance(.seconds(1))
        #expect(near.bothReady && far.bothReady)
        near.uplinked.removeAll()
        far.uplinked.removeAll()
        return (near, far)
    }

    @Test func aBroadcastCrossesOnceAsTheGatewaysRelayCopyAndIsNeverHandedBack() throws {
        let (near, far) = try Self.islands()
        try near.send("across")
        let fromGateway = near.uplinked.filter { !$0.fromA }.map(\.envelope)
        #expect(fromGateway.count == 1)
        let copy = try #require(fromGateway.first)
        #expect(copy.hops == 1)
        #expect(copy.route == [near.a.nodeID, near.b.nodeID])
        // The origin hands its own envelope to the bridge as it sent it (hops 0).
        #expect(near.uplinked.filter(\.fromA).map(\.envelope.hops) == [0])
        // The bridge carries the bytes; the far gateway decodes them again.
        let received = try Envelope(decoding: copy.encoded())
        far.performAtB(far.b.receiveBridged(received, now: far.now))
        #expect(far.delivered.map(\.text) == ["across", "across"])  // far B, then far A
        #expect(far.delivered.map(\.hops) == [0, 1])  // re-based: the whole hop limit again in the far island
        #expect(far.uplinked.filter { !$0.fromA }.isEmpty)  // the far gateway hands nothing back
        // The same bytes again (a second gateway, a replay, a QoS 1 duplicate): nothing new.
        far.performAtB(far.b.receiveBridged(received, now: far.now))
        #expect(far.delivered.count == 2)
        #expect(far.b.kindCounters[.message].droppedSeen == 1)
    }

    /// CONTROL.md `mqtt` and PROTOCOL.md F4 step 7: a copy from the broker counts in its kind's
    /// group like a copy from a neighbour: `received` once it reaches the rules, then what became of it.
    @Test func aBrokerCopyCountsInItsKindsReceivedLikeALinkCopy() throws {
        let (near, far) = try Self.islands()
        try near.send("counted")
        let copy = try #require(near.uplinked.filter { !$0.fromA }.first?.envelope)
        let before = far.b.kindCounters[.message]
        far.performAtB(far.b.receiveBridged(copy, now: far.now))
        far.performAtB(far.b.receiveBridged(copy, now: far.now))
        let after = far.b.kindCounters[.message]
        #expect(after.received - before.received == 2)
        #expect(after.delivered - before.delivered == 1 && after.droppedSeen - before.droppedSeen == 1)
        #expect(after.relayed - before.relayed == 1)
    }

    @Test func aGatewayHandsTheBridgeWhatItOriginates() throws {
        let (near, _) = try Self.islands()
        let (_, actions) = try near.b.send(text: "mine", now: near.now)
        let uplinks = actions.compactMap { action -> Envelope? in
            if case .uplink(let envelope) = action { envelope } else { nil }
        }
        #expect(uplinks.map(\.hops) == [0])
        #expect(uplinks.first?.route == [near.b.nodeID])
    }

    @Test func aForgedSignatureFromTheBrokerIsCountedAndGoesNowhere() throws {
        let (near, far) = try Self.islands()
        try near.send("genuine")
        var forged = try #require(near.uplinked.last?.envelope)
        forged.payload[forged.payload.count - 1] ^= 0x01
        far.performAtB(far.b.receiveBridged(forged, now: far.now))
        #expect(far.delivered.isEmpty)
        #expect(far.b.kindCounters[.message].droppedUnverifiable == 1)
        // The genuine copy still gets through afterwards: the forgery never entered the seen cache.
        far.performAtB(far.b.receiveBridged(try #require(near.uplinked.last?.envelope), now: far.now))
        #expect(far.delivered.count == 2)
    }

    @Test(arguments: [MessageKind.profile, .heartbeat, .keyExchange])
    func kindsThatDoNotCrossAreDropped(kind: MessageKind) throws {
        let (near, far) = try Self.islands()
        try near.send("x")
        var envelope = try #require(near.uplinked.last?.envelope)
        envelope.kind = kind
        let actions = far.b.receiveBridged(envelope, now: far.now)
        #expect(actions.allSatisfy { if case .event(.dropped) = $0 { true } else { false } })
        #expect(!actions.isEmpty)
    }

    /// The bridge is a port, not a link: what it brought and the rules dropped is reported from
    /// `.bridge`, never from a link of some transport.
    @Test func aDropOfABrokerCopyNamesTheBridgeAsItsSource() throws {
        let (near, far) = try Self.islands()
        try near.send("twice")
        let copy = try #require(near.uplinked.filter { !$0.fromA }.first?.envelope)
        far.performAtB(far.b.receiveBridged(copy, now: far.now))
        let sources = far.b.receiveBridged(copy, now: far.now).compactMap { action -> EnvelopeSource? in
            if case .event(.dropped(_, _, .rule(.seen), let source)) = action { source } else { nil }
        }
        #expect(sources == [.bridge])
    }

    @Test(arguments: [UInt8(0), 1, 2])
    func aLongTravelledEnvelopeEntersTheFarIslandWithTheDownlinkHops(downlinkHops: UInt8) throws {
        var configuration = Self.bridged
        configuration.bridgeDownlinkHops = downlinkHops
        let near = try EnginePair(configuration: Self.bridged)
        let far = try EnginePair(configuration: configuration)
        near.advance(.seconds(1))
        far.advance(.seconds(1))
        try near.send("far")
        var envelope = try #require(near.uplinked.last?.envelope)
        // As if it had travelled the message limit's worth of hops in the near island.
        let limit = HopLimits.relayChatDefaults.limit(for: .message)
        envelope.hops = limit
        envelope.route = [envelope.origin] + (1..<Int(limit)).map { _ in try! NodeIdentity.generate().nodeID } + [near.b.nodeID]
        far.performAtB(far.b.receiveBridged(envelope, now: far.now))
        // Far B delivers it with the downlink hops; far A gets B's relay only while the limit allows one more hop.
        #expect(far.delivered.first?.hops == downlinkHops)
        #expect(far.delivered.count == (downlinkHops + 1 < limit ? 2 : 1))
        #expect(far.delivered.dropFirst().allSatisfy { $0.hops == downlinkHops + 1 })
    }

    @Test func anEditedRouteFromTheBrokerIsRefusedNotRebased() throws {
        let (near, far) = try Self.islands()
        try near.send("edited")
        var envelope = try #require(near.uplinked.last?.envelope)
        envelope.hops = 3  // the route says 1
        far.performAtB(far.b.receiveBridged(envelope, now: far.now))
        #expect(far.delivered.isEmpty)
        #expect(far.b.kindCounters[.message].droppedBadRoute == 1)
    }
}
