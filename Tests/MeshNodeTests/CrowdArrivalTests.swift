import MeshNode
import MeshProtocol
import MeshSim
import Testing

/// People spread over a floor, linking to those within radio range (at most `maxDegree` links each).
private struct Floor {
    let edges: [(Int, Int)]
    let count: Int

    init(people count: Int, side: Double, range: Double, maxDegree: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let spots = (0..<count).map { _ in
            (Double(random.next() % 10_000) / 10_000 * side, Double(random.next() % 10_000) / 10_000 * side)
        }
        var degree = [Int](repeating: 0, count: count)
        var edges: [(Int, Int)] = []
        for a in 0..<count {
            for b in (a + 1)..<count {
                let dx = spots[a].0 - spots[b].0
                let dy = spots[a].1 - spots[b].1
                guard dx * dx + dy * dy < range * range, degree[a] < maxDegree, degree[b] < maxDegree else { continue }
                edges.append((a, b))
                degree[a] += 1
                degree[b] += 1
            }
        }
        self.edges = edges
        self.count = count
    }

    func neighbours(of node: Int) -> Set<Int> {
        Set(edges.compactMap { $0.0 == node ? $0.1 : $0.1 == node ? $0.0 : nil })
    }

    /// Nodes exactly two hops from `node`.
    func twoHops(from node: Int) -> Set<Int> {
        let near = neighbours(of: node)
        return near.reduce(into: Set<Int>()) { $0.formUnion(neighbours(of: $1)) }.subtracting(near).subtracting([node])
    }
}

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
