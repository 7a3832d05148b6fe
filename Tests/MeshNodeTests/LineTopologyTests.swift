import MeshNode
import MeshProtocol
import MeshSim
import Testing

@Suite("Line A–B–C–D–E")
struct LineTopologyTests {
    @Test("A's message reaches B, C and D, never E; A's join notice reaches B and C, never D")
    func reach() throws {
        let sim = try MeshSimulator(nodeCount: 5, seed: 1)
        _ = sim.line([0, 1, 2, 3, 4])
        sim.run(for: .seconds(5))
        for index in 0..<5 { #expect(sim.readyNeighbourCount(index) == (index == 0 || index == 4 ? 1 : 2)) }
        let id = try sim.send(from: 0, text: "hello line")
        sim.run(for: .seconds(2))
        #expect(sim.deliveries(of: id) == [1: 1, 2: 1, 3: 1])
        #expect(sim.learnedFromJoin(1, origin: 0))
        #expect(sim.learnedFromJoin(2, origin: 0))
        #expect(!sim.learnedFromJoin(3, origin: 0))
        #expect(!sim.learnedFromJoin(4, origin: 0))
    }

    @Test("Heartbeats are never relayed")
    func heartbeatsStayLocal() throws {
        let sim = try MeshSimulator(nodeCount: 5, seed: 2)
        _ = sim.line([0, 1, 2, 3, 4])
        sim.run(for: .seconds(65))
        for node in sim.nodes {
            #expect(node.engine.kindCounters[.heartbeat].relayed == 0)
            #expect(node.engine.kindCounters[.heartbeat].delivered > 0)
        }
    }

    @Test("A direct message is carried opaque and delivered only at its destination")
    func directMessage() throws {
        let sim = try MeshSimulator(nodeCount: 4, seed: 3)
        _ = sim.line([0, 1, 2, 3])
        sim.run(for: .seconds(8))
        let id = try sim.send(from: 0, text: "for C only", to: 2)
        sim.run(for: .seconds(2))
        #expect(sim.deliveries(of: id) == [2: 1])
        #expect(sim.nodes[2].delivered.last?.text == "for C only")
        let relayedOpaque = sim.nodes[1].events.contains { event in
            if case .relayed(let relayed, _, _, _, let opaque) = event { return relayed == id && opaque }
            return false
        }
        #expect(relayedOpaque)
    }
}
