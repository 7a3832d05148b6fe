import Flooding
import MeshCrypto
import MeshLink
import MeshProtocol
import Testing
@testable import MeshNode
@testable import MeshSim

/// A ring of 8 with two chords: every node has at least two neighbours.
private let ring = MeshGraph(
    nodeCount: 8, edges: (0..<8).map { MeshGraph.Edge(a: $0, b: ($0 + 1) % 8) } + [MeshGraph.Edge(a: 0, b: 4), MeshGraph.Edge(a: 2, b: 6)])
private let base: UInt64 = 1_767_225_600_000
private let day: UInt64 = 86_400_000

/// What one run delivered: per message, the nodes that got it and how often.
private struct ClockRun {
    var deliveries: [[Int: Int]] = []
    var staleDrops: UInt64 = 0
    var originals: [Int: Envelope] = [:]
}

/// Broadcasts a signed message of node `index`'s own, stamped with its mesh time, and returns it.
private func broadcast(_ sim: MeshSimulator, from index: Int, text: String, id: MessageID) throws -> Envelope {
    let node = sim.nodes[index]
    let body = ChatBody(
        signingKey: node.identity.signingPublicKey.compressed, agreementKey: node.identity.agreementPublicKey.compressed, text: text)
    var envelope = Envelope(
        kind: .message, messageID: id, origin: node.nodeID, route: [node.nodeID],
        timestamp: node.engine.timestamp(at: sim.now), payload: body.encoded())
    try EnvelopeSigner.sign(&envelope, with: node.identity)
    _ = node.engine.originate(envelope, now: sim.now)
    sim.perform(node.engine.takeActions(), node: index)
    return envelope
}

/// Keys the ring, then every node broadcasts once and three direct messages go 2→5, 5→0, 0→2.
private func run(wallClocks: [UInt64], seed: UInt64 = 19) throws -> (MeshSimulator, ClockRun) {
    let sim = try MeshSimulator(nodeCount: ring.nodeCount, seed: seed, wallClocks: wallClocks)
    for edge in ring.edges { sim.connect(edge.a, edge.b) }
    sim.run(for: .seconds(12))
    var result = ClockRun()
    var ids: [MessageID] = []
    for origin in 0..<ring.nodeCount {
        let envelope = try broadcast(sim, from: origin, text: "from \(origin)", id: MessageID(bytes: [UInt8](repeating: UInt8(origin + 1), count: 16)))
        result.originals[origin] = envelope
        ids.append(envelope.messageID)
        sim.run(for: .milliseconds(400))
    }
    for (from, to) in [(2, 5), (5, 0), (0, 2)] {
        ids.append(try sim.send(from: from, text: "\(from) to \(to)", to: to))
        sim.run(for: .milliseconds(400))
    }
    sim.run(for: .seconds(3))
    result.deliveries = ids.map { sim.deliveries(of: $0) }
    result.staleDrops = sim.nodes.reduce(0) { $0 + $1.engine.kindCounters[.message].droppedStale + $1.engine.kindCounters[.joinNotice].droppedStale }
    return (sim, result)
}

/// Node `via` hands node `target` a copy of `original` as if relaying it, at the current time.
private func replay(_ sim: MeshSimulator, _ original: Envelope, via: Int, to target: Int) {
    var copy = original
    copy.hops = 1
    copy.route = [original.origin, sim.nodes[via].nodeID]
    let engine = sim.nodes[via].engine
    _ = engine.sendEnvelope(copy, to: sim.nodes[target].nodeID, now: sim.now)
    sim.perform(engine.takeActions(), node: via)
}

@Suite("Wrong clocks in the simulator: mesh time keeps the mesh working and replays refused")
struct WrongClockMeshTests {
    @Test("One node 3 days behind and one 2 years ahead: every delivery as with correct clocks, replays refused")
    func wrongClocksDeliverAsCorrectOnes() throws {
        let (_, correct) = try run(wallClocks: [UInt64](repeating: base, count: 8))
        var clocks = [UInt64](repeating: base, count: 8)
        clocks[2] = base - 3 * day
        clocks[5] = base + 730 * day
        let (sim, wrong) = try run(wallClocks: clocks)
        let expected = (0..<8).map { ring.within(3, of: $0).count }.reduce(0, +) + 3
        let delivered = { (run: ClockRun) in run.deliveries.reduce(0) { $0 + $1.count } }
        print("correct clocks: \(delivered(correct)) of \(expected); wrong clocks: \(delivered(wrong)) of \(expected), stale drops \(wrong.staleDrops)")
        #expect(delivered(correct) == expected)
        #expect(wrong.deliveries == correct.deliveries)
        #expect(wrong.staleDrops == 0)
        #expect(wrong.deliveries.allSatisfy { $0.values.allSatisfy { $0 == 1 } })
        for index in 0..<8 {
            let clock = sim.nodes[index].engine.clock
            let truth: Int64 = index == 2 ? Int64(3 * day) : index == 5 ? -Int64(730 * day) : 0
            #expect(clock.isSynchronised)
            #expect(abs((clock.offsetMilliseconds ?? .max) - truth) < 1000, "node \(index): \(String(describing: clock.offsetMilliseconds))")
        }
        // Eleven minutes on, the seen cache has forgotten them: the mesh-time rule refuses the replays,
        // at the node whose clock is 2 years ahead and at one with a correct clock.
        sim.run(for: .seconds(660))
        let staleBefore = sim.nodes[5].engine.kindCounters[.message].droppedStale + sim.nodes[0].engine.kindCounters[.message].droppedStale
        replay(sim, wrong.originals[0]!, via: 4, to: 5)
        replay(sim, wrong.originals[2]!, via: 4, to: 0)
        sim.run(for: .seconds(2))
        #expect(sim.deliveries(of: wrong.originals[0]!.messageID)[5] == 1)
        #expect(sim.deliveries(of: wrong.originals[2]!.messageID)[0] == 1)
        let staleAfter = sim.nodes[5].engine.kindCounters[.message].droppedStale + sim.nodes[0].engine.kindCounters[.message].droppedStale
        #expect(staleAfter == staleBefore + 2)
    }

    @Test("A neighbour that keeps stamping a time a day ahead moves no estimate by more than 10 s")
    func lyingNeighbour() throws {
        let sim = try MeshSimulator(nodeCount: ring.nodeCount, seed: 23, wallClocks: (0..<8).map { $0 == 3 ? base + day : base })
        // Node 3 never takes mesh time: it keeps stamping its own clock, a day ahead.
        sim.nodes[3].engine.clock = MeshClock(parameters: MeshClockParameters(minimumVoters: .max))
        for edge in ring.edges { sim.connect(edge.a, edge.b) }
        sim.run(for: .seconds(60))
        for index in 0..<8 where index != 3 {
            let clock = sim.nodes[index].engine.clock
            #expect(clock.isSynchronised)
            #expect(abs(clock.offsetMilliseconds ?? .max) <= 10_000, "node \(index): \(String(describing: clock.offsetMilliseconds))")
        }
        // Its neighbours 2 and 4 heard it, and still deliver what the others send.
        #expect(sim.nodes[2].engine.clock.voteCount(now: sim.now) == 3)
        let id = try sim.send(from: 0, text: "still here")
        sim.run(for: .seconds(2))
        #expect(Set(sim.deliveries(of: id).keys).isSuperset(of: ring.within(3, of: 0).filter { $0 != 3 }))
    }
}
