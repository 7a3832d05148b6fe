import Flooding
import MeshNode
import MeshProtocol
import MeshSim
import Testing

/// What one run of a topology measured, on the simulator's virtual clock.
private struct FloodRun: CustomStringConvertible {
    var expected = 0
    var delivered = 0
    var messageFrames = 0
    var duplicates = 0

    var ratio: Double { Double(delivered) / Double(max(expected, 1)) }
    var framesPerDelivery: Double { Double(messageFrames) / Double(max(delivered, 1)) }
    var description: String {
        "delivered \(delivered) of \(expected), \(messageFrames) message frames, \(duplicates) duplicates"
    }
}

/// Keys every link of `graph`, then sends `broadcasts` broadcasts from seeded random nodes and
/// counts deliveries at nodes within the 3-hop limit of the origin and message frames on the air.
private func flood(_ graph: MeshGraph, scheduler: RelaySchedulerChoice, broadcasts: Int, seed: UInt64) throws -> FloodRun {
    var configuration = EngineConfiguration()
    configuration.relayScheduler = scheduler
    configuration.admission.maxUnkeyedLinks = max(32, graph.maxDegree)
    let sim = try MeshSimulator(nodeCount: graph.nodeCount, seed: seed, configuration: configuration)
    for edge in graph.edges { sim.connect(edge.a, edge.b) }
    sim.run(for: .seconds(12))
    let framesBefore = sim.nodes.reduce(0) { $0 + ($1.framesSent[MessageKind.message.rawValue] ?? 0) }
    var random = SplitMix64(seed: seed ^ 0xF100D)
    var sent: [(MessageID, Int)] = []
    for round in 0..<broadcasts {
        let origin = Int(random.next() % UInt64(graph.nodeCount))
        sent.append((try sim.send(from: origin, text: "managed \(round)"), origin))
        sim.run(for: .milliseconds(400))
    }
    sim.run(for: .seconds(3))
    var run = FloodRun()
    run.messageFrames = sim.nodes.reduce(0) { $0 + ($1.framesSent[MessageKind.message.rawValue] ?? 0) } - framesBefore
    for (id, origin) in sent {
        let wanted = Set(graph.within(3, of: origin))
        let got = sim.deliveries(of: id)
        run.expected += wanted.count
        run.delivered += got.keys.filter { wanted.contains($0) }.count
        run.duplicates += got.values.reduce(0) { $0 + $1 - 1 }
    }
    return run
}

@Suite("Managed flooding in the simulator")
struct ManagedFloodingMeshTests {
    @Test("On a dense mesh managed flooding sends at least 40 % fewer frames and delivers as much as plain flooding")
    func denseMeshSavesFrames() throws {
        let graph = MeshGraph.randomGeometric(nodes: 60, meanDegree: 10, maxLinks: 16, seed: 12)
        #expect(graph.meanDegree >= 8)
        let plain = try flood(graph, scheduler: .plain, broadcasts: 30, seed: 12)
        let managed = try flood(graph, scheduler: .managed(ManagedFloodingParameters()), broadcasts: 30, seed: 12)
        print("dense 60 nodes, mean degree \(graph.meanDegree): plain \(plain); managed \(managed)")
        #expect(plain.expected > 1000)
        #expect(managed.ratio >= 0.99 && managed.ratio >= plain.ratio)
        #expect(Double(managed.messageFrames) <= 0.6 * Double(plain.messageFrames))
        #expect(plain.duplicates == 0 && managed.duplicates == 0)
    }

    @Test("On a line and a ring managed flooding loses nothing and sends what plain flooding sends",
          arguments: ["line", "ring"])
    func sparseMeshLosesNothing(shape: String) throws {
        let graph = shape == "line" ? MeshGraph.line(nodes: 12) : MeshGraph.ring(nodes: 12)
        let plain = try flood(graph, scheduler: .plain, broadcasts: 20, seed: 5)
        let managed = try flood(graph, scheduler: .managed(ManagedFloodingParameters()), broadcasts: 20, seed: 5)
        #expect(plain.expected > 0 && plain.ratio == 1)
        #expect(managed.delivered == plain.delivered && managed.expected == plain.expected)
        #expect(managed.messageFrames == plain.messageFrames)
    }
}
