import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol
import MeshSim
import Testing

@Suite("Engine robustness")
struct EngineRobustnessTests {
    /// Sends "carrier" once clean, then once per altered byte (every 5th byte of each of its
    /// frames), `between` apart; returns how many altered copies went out.
    private func sendTampered(_ pair: EnginePair, between: Duration) throws -> Int {
        // Which transfers carry a message, as A noted them: an opaque packet (PROTOCOL.md D14)
        // shows no kind on the air.
        var kinds: [UInt32: UInt8] = [:]
        let carriesMessage = { (frame: [UInt8]) -> Bool in
            for sent in pair.a.takeSentTransfers() { kinds[sent.transferID] = sent.kind }
            guard frame.count >= 9 else { return false }
            return kinds[frame[1..<5].reduce(0) { $0 << 8 | UInt32($1) }] == MessageKind.message.rawValue
        }
        var frameSizes: [Int] = []
        pair.tamper = { frame in
            if carriesMessage(frame) { frameSizes.append(frame.count) }
            return [frame]
        }
        try pair.send("carrier")
        #expect(frameSizes.count >= 2)
        var flips = 0
        for (frameIndex, size) in frameSizes.enumerated() {
            for byteIndex in stride(from: 0, to: size, by: 5) {
                var seen = 0
                // Only the new message's frames count: acknowledgements and messages sent again pass.
                pair.tamper = { frame in
                    guard carriesMessage(frame) else { return [frame] }
                    defer { seen += 1 }
                    var altered = frame
                    if seen == frameIndex { altered[byteIndex] ^= 0x5A }
                    return [altered]
                }
                try pair.send("carrier")
                pair.advance(between)
                flips += 1
            }
        }
        pair.tamper = { [$0] }
        return flips
    }

    /// Everything B dropped and counted on the way from a frame to a message.
    private func droppedAtB(_ pair: EnginePair) -> UInt64 {
        let link = pair.b.linkCounters
        let fragments = pair.b.fragmenterCounters
        let message = pair.b.kindCounters[.message]
        return link.sealFailures + link.replays + link.unknownKinds + UInt64(fragments.rejected + fragments.timedOut)
            + message.droppedMalformed + message.droppedUnverifiable
    }

    @Test("Every single-byte change to a message's frames is dropped and counted; later traffic still flows")
    func tamperedFrames() throws {
        // Between older nodes (no link acknowledgements): each altered copy is simply lost.
        var configuration = EngineConfiguration()
        configuration.linkDelivery.acknowledges = false
        configuration.notesSentTransfers = true
        let pair = try EnginePair(configuration: configuration)
        pair.advance(.milliseconds(250))
        try pair.send("clean")
        #expect(pair.delivered.map(\.text) == ["clean"])
        let flips = try sendTampered(pair, between: .zero)
        pair.advance(.seconds(11))  // partial transfers left by altered headers time out
        let link = pair.b.linkCounters
        let fragments = pair.b.fragmenterCounters
        let failures = droppedAtB(pair)
        #expect(failures >= UInt64(flips))
        #expect(pair.delivered.filter { $0.text == "carrier" }.count == 1)
        try pair.send("after the storm")
        #expect(pair.delivered.last?.text == "after the storm")
        print("tampered \(flips) messages: \(link.sealFailures) seal failures, \(fragments.rejected) fragment rejections, \(fragments.timedOut) timed out")
    }

    @Test("With link acknowledgements every altered copy is dropped and counted, and each message still arrives once")
    func tamperedFramesAcknowledged() throws {
        var configuration = EngineConfiguration()
        configuration.notesSentTransfers = true
        let pair = try EnginePair(configuration: configuration)
        pair.advance(.milliseconds(250))
        try pair.send("clean")
        let flips = try sendTampered(pair, between: .milliseconds(250))
        pair.advance(.seconds(4))
        pair.advance(.seconds(4))
        let failures = droppedAtB(pair)
        #expect(failures >= UInt64(flips))
        let carriers = Dictionary(grouping: pair.delivered.filter { $0.text == "carrier" }, by: \.messageID)
        #expect(carriers.count == flips + 1, "every copy sent, altered or not, arrives")
        #expect(carriers.values.allSatisfy { $0.count == 1 }, "and each exactly once")
        #expect(pair.a.linkCounters.resent >= UInt64(flips) / 2)
        try pair.send("after the storm")
        #expect(pair.delivered.last?.text == "after the storm")
    }

    @Test("100,000 random frames on a live link: no crash, buffers within caps, the link keeps working")
    func randomFrames() throws {
        // The frame budget off: every frame reaches the reassembler and the seal.
        var configuration = EngineConfiguration()
        configuration.frameBudget = .off
        let pair = try EnginePair(configuration: configuration)
        pair.advance(.milliseconds(250))
        var random = SplitMix64(seed: 99)
        #expect(pair.b.bufferedFragmentBytes == 0)
        for round in 0..<100_000 {
            let length = Int(random.next() % 120)
            var frame = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if length > 0, round % 2 == 0 { frame[0] = UInt8(1 + random.next() % 5) }
            _ = pair.b.handle(.frameReceived(LinkID(2), frame), now: pair.now)
            #expect(pair.b.bufferedFragmentBytes <= 4_194_304)
            if round % 10_000 == 0 { pair.advance(.seconds(1)) }
        }
        #expect(pair.b.fragmenterCounters.rejected > 0)
        pair.advance(.seconds(11))
        try pair.send("still alive")
        #expect(pair.delivered.last?.text == "still alive")
    }

    @Test("A link past its frame budget: its frames are counted and go no further than that; the link works again once it refills")
    func frameBudgetStopsAFloodBeforeReassembly() throws {
        let pair = try EnginePair()
        pair.advance(.milliseconds(250))
        let before = pair.b.fragmenterCounters
        var random = SplitMix64(seed: 7)
        // 20,000 frames in one instant: at most a burst (4,000) is looked at.
        for _ in 0..<20_000 {
            let frame = [MessageKind.message.rawValue] + (0..<60).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = pair.b.handle(.frameReceived(LinkID(2), frame), now: pair.now)
        }
        let after = pair.b.fragmenterCounters
        let looked = (after.accepted + after.rejected + after.duplicate + after.lateDuplicate)
            - (before.accepted + before.rejected + before.duplicate + before.lateDuplicate)
        #expect(looked <= FrameBudget.standard.burst)
        #expect(pair.b.linkCounters.framesOverBudget >= UInt64(20_000 - FrameBudget.standard.burst))
        pair.advance(.seconds(11))
        try pair.send("after the flood")
        #expect(pair.delivered.last?.text == "after the flood")
    }

    @Test("Link keys roll over under traffic and no message is lost")
    func rekeyUnderTraffic() throws {
        var configuration = EngineConfiguration()
        configuration.rekeyAfterMessages = 5
        let sim = try MeshSimulator(nodeCount: 3, seed: 51, configuration: configuration)
        _ = sim.line([0, 1, 2])
        sim.run(for: .seconds(3))
        var ids: [MessageID] = []
        for round in 0..<30 {
            ids.append(try sim.send(from: round % 3, text: "rekey \(round)"))
            sim.run(for: .milliseconds(300))
        }
        sim.run(for: .seconds(2))
        // Whoever reaches the message count first opens the new exchange; both ends re-key.
        #expect(sim.nodes.reduce(0) { $0 + $1.engine.linkCounters.rekeys } > 0)
        #expect(sim.nodes.allSatisfy { $0.engine.linkCounters.keyExchanges > 2 })
        for (round, id) in ids.enumerated() {
            #expect(sim.deliveries(of: id).count == 2, "message \(round)")
        }
        #expect(sim.nodes.allSatisfy { $0.engine.linkCounters.sealFailures == 0 })
    }
}
