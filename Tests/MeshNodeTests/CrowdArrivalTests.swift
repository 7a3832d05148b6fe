import MeshNode
import MeshProtocol
import MeshSim
import Testing

@Suite("Crowd arriving")
struct CrowdArrivalTests {
    /// Forty people arrive one every 3 s on a 60 m floor (15 m range, at most 6 links each).
    /// Those who came early have spent their join notices before the late ones exist; the
    /// answers make every node end up with the keys of every node two hops away.
    @Test("Everyone learns the keys of everyone two hops away, however late they came")
    func everyoneKnowsTheirTwoHopNeighbourhood() throws {
        let floor = Floor(people: 40, side: 60, range: 15, maxDegree: 6, seed: 99)
        let sim = try MeshSimulator(nodeCount: floor.count, seed: 99)
        for (index, edge) in floor.edges.enumerated() {
            let arrival = Int64(max(edge.0, edge.1) * 3 + index % 3)
            sim.at(.seconds(arrival)) { $0.connect(edge.0, edge.1) }
        }
        sim.run(for: .seconds(Int64(floor.count * 3 + 60)))
        var expected = 0
        var learned = 0
        for node in 0..<floor.count {
            let known = Set(sim.nodes[node].engine.remoteNodeSnapshots().map(\.nodeID))
            let wanted = Set(floor.twoHops(from: node).map { sim.nodes[$0].nodeID })
            #expect(wanted.isSubset(of: known), "node \(node) lacks \(wanted.subtracting(known).count) of \(wanted.count)")
            expected += wanted.count
            learned += wanted.intersection(known).count
        }
        #expect(expected > floor.count)  // the floor really has two-hop pairs to learn
        let joinFrames = sim.nodes.map { $0.framesSent[MessageKind.joinNotice.rawValue, default: 0] }.reduce(0, +)
        let heartbeatFrames = sim.nodes.map { $0.framesSent[MessageKind.heartbeat.rawValue, default: 0] }.reduce(0, +)
        print("crowd of \(floor.count), \(floor.edges.count) links: \(learned) of \(expected) two-hop pairs known; join-notice frames \(joinFrames), heartbeat frames \(heartbeatFrames)")
    }
}
