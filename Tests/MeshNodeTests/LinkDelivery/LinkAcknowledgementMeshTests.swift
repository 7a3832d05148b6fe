import MeshNode
import MeshProtocol
import MeshSim
import Testing

/// The link acknowledgement and credit on the simulator (PROTOCOL.md D12): loss on a link that
/// stays up, links that drop with packets in flight, an older node, a small credit.
@Suite("Link acknowledgement on the simulator")
struct LinkAcknowledgementMeshTests {
    private static func withoutAcknowledgements() -> EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.linkDelivery.acknowledges = false
        return configuration
    }

    /// A–B over one link losing `loss` of its frames; A broadcasts `count` messages, one each 0.5 s.
    private static func lossyPair(
        configuration: EngineConfiguration, loss: Double, count: Int, seed: UInt64
    ) throws -> (sim: MeshSimulator, ids: [MessageID]) {
        let sim = try MeshSimulator(nodeCount: 2, seed: seed, configuration: configuration)
        sim.reconnectDelay = .seconds(1)
        sim.connect(0, 1, spec: SimLinkSpec(loss: loss))
        sim.run(for: .seconds(20))
        var ids: [MessageID] = []
        for index in 0..<count {
            ids.append(try sim.send(from: 0, text: "lossy \(index) " + String(repeating: "x", count: 300)))
            sim.run(for: .milliseconds(500))
        }
        sim.run(for: .seconds(20))
        return (sim, ids)
    }

    @Test("5 % frame loss on a link that stays up: every message arrives exactly once, lost ones sent again")
    func lossOnALiveLink() throws {
        let (sim, ids) = try Self.lossyPair(configuration: EngineConfiguration(), loss: 0.05, count: 60, seed: 5)
        #expect(sim.framesLost > 0)
        let counts = ids.map { sim.deliveries(of: $0)[1] ?? 0 }
        let counters = sim.nodes[0].engine.linkCounters
        #expect(counts.allSatisfy { $0 == 1 }, "deliveries at B: \(counts); A: \(counters); hold: \(sim.nodes[0].engine.holdCounters)")
        #expect(counters.resent > 0 && counters.acknowledgementsReceived > 0, "\(counters)")
    }

    @Test("The same loss between older nodes (no acknowledgements) loses messages: what D12 adds")
    func lossWithoutAcknowledgements() throws {
        let (sim, ids) = try Self.lossyPair(configuration: Self.withoutAcknowledgements(), loss: 0.05, count: 60, seed: 5)
        let counts = ids.map { sim.deliveries(of: $0)[1] ?? 0 }
        #expect(counts.allSatisfy { $0 <= 1 })
        #expect(counts.filter { $0 == 0 }.count > 0, "without acknowledgements some are lost")
    }

    @Test("A link that drops with messages in flight: each comes again on the next link, exactly once",
          arguments: [0, 1, 5])
    func dropInFlight(afterMilliseconds: Int) throws {
        let sim = try MeshSimulator(nodeCount: 2, seed: 9)
        let link = sim.connect(0, 1)
        sim.run(for: .seconds(12))
        var ids: [MessageID] = []
        for index in 0..<10 { ids.append(try sim.send(from: 0, text: "in flight \(index)")) }
        sim.run(for: .milliseconds(afterMilliseconds))
        sim.disconnect(link)
        sim.run(for: .seconds(1))
        sim.reconnect(link)
        sim.run(for: .seconds(5))
        #expect(ids.map { sim.deliveries(of: $0)[1] ?? 0 } == Array(repeating: 1, count: 10))
        #expect(sim.nodes[0].engine.linkCounters.unconfirmedAtLinkDown > 0)
    }

    /// The drops VM scenario's sequence (Tests/VM/meshnoded-drops.sh): a message goes on a ready
    /// link (`sentTo` 1) and the link drops before the peer has it. It is unconfirmed and held for
    /// the neighbour (D12 step 5): delivered once when the neighbour is back within its departure
    /// grace (30 s), lost with everything else held for it when it stays away longer (Part E).
    @Test("A message on a link that drops at once: delivered once when the neighbour is back within its grace, lost with its departure after",
          arguments: [(awaySeconds: 5, deliveries: 1), (awaySeconds: 40, deliveries: 0)])
    func dropThenAway(awaySeconds: Int, deliveries: Int) throws {
        let sim = try MeshSimulator(nodeCount: 2, seed: 17)
        let link = sim.connect(0, 1)
        sim.run(for: .seconds(12))
        let a = sim.nodes[0].engine
        let inFlight = try sim.send(from: 0, text: "as the link drops")
        #expect(a.holdCounters.held == 0, "it went on the ready link, not held")
        sim.disconnect(link)
        #expect(a.linkCounters.unconfirmedAtLinkDown == 1 && a.holdCounters.resent == 1)
        let heldMeanwhile = try sim.send(from: 0, text: "while the link is down")
        sim.run(for: .seconds(awaySeconds))
        sim.reconnect(link)
        sim.run(for: .seconds(15))
        let after = try sim.send(from: 0, text: "once linked again")
        sim.run(for: .seconds(5))
        #expect(sim.deliveries(of: inFlight)[1] ?? 0 == deliveries)
        #expect(sim.deliveries(of: heldMeanwhile)[1] ?? 0 == deliveries)
        #expect(sim.deliveries(of: after) == [1: 1])
        #expect(a.linkCounters.departures == (deliveries == 0 ? 1 : 0))
        #expect(a.holdCounters.expired == (deliveries == 0 ? 2 : 0), "\(a.holdCounters)")
    }

    /// The drops VM scenario's second losing sequence: a neighbour comes back after its link was
    /// down for a while, and what was held for it goes out the moment the link is ready. That is
    /// on the peer's profile; its announcement (D12) must come before it, or the held batch goes
    /// out untracked: nothing paces it to the peer's credit (the BlueZ transport refuses what
    /// overflows its 32-frame queue) and nothing lost of it is ever sent again.
    @Test("Messages held while the link was down go out tracked and paced by credit when it is back, each once")
    func heldBatchIsTrackedOnRelink() throws {
        let sim = try MeshSimulator(nodeCount: 2, seed: 19)
        let link = sim.connect(0, 1)
        sim.run(for: .seconds(12))
        sim.disconnect(link)
        var ids: [MessageID] = []
        for index in 0..<40 { ids.append(try sim.send(from: 0, text: "held \(index)")) }
        let a = sim.nodes[0].engine
        #expect(a.holdCounters.held == 40)
        sim.reconnect(link)
        sim.run(for: .seconds(15))
        #expect(a.holdCounters.sentLate == 40)
        // More than the peer's credit (32) at once: the rest waited for acknowledgements.
        #expect(a.linkCounters.creditWaits >= 8, "\(a.linkCounters)")
        #expect(ids.map { sim.deliveries(of: $0)[1] ?? 0 } == Array(repeating: 1, count: 40))
    }

    @Test("A new node links an older one: messages flow both ways, and the older peer is reported once")
    func olderPeer() throws {
        let sim = try MeshSimulator(nodeCount: 2, seed: 11, nodeConfigurations: [1: Self.withoutAcknowledgements()])
        sim.connect(0, 1)
        sim.run(for: .seconds(12))
        let toOld = try sim.send(from: 0, text: "to the older node")
        let toNew = try sim.send(from: 1, text: "to the newer node")
        sim.run(for: .seconds(15))
        #expect(sim.deliveries(of: toOld) == [1: 1])
        #expect(sim.deliveries(of: toNew) == [0: 1])
        #expect(sim.nodes[0].engine.linkCounters.unacknowledgedPeers == 1)
        #expect(sim.nodes[0].engine.linkCounters.acknowledgementsReceived == 0)
        // The older node drops the announcement as a kind it does not know, and nothing else happens.
        #expect(sim.nodes[1].engine.linkCounters.unknownKinds >= 1)
        #expect(sim.nodes[1].engine.linkCounters.acknowledgementsSent == 0)
    }

    @Test("A receiver's small credit paces a burst: every message arrives once, in order")
    func smallCredit() throws {
        var configuration = EngineConfiguration()
        configuration.linkDelivery.credit = 2
        let sim = try MeshSimulator(nodeCount: 2, seed: 13, configuration: configuration)
        sim.connect(0, 1)
        sim.run(for: .seconds(12))
        var ids: [MessageID] = []
        for index in 0..<40 { ids.append(try sim.send(from: 0, text: "burst \(index)")) }
        sim.run(for: .seconds(10))
        #expect(ids.map { sim.deliveries(of: $0)[1] ?? 0 } == Array(repeating: 1, count: 40))
        let order = sim.nodes[1].delivered.map(\.messageID).filter { ids.contains($0) }
        #expect(order == ids)
        #expect(sim.nodes[0].engine.linkCounters.creditWaits > 0)
    }
}
