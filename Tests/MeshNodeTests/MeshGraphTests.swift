import MeshSim
import Testing

@Suite("Mesh graphs for the simulator")
struct MeshGraphTests {
    @Test("A random geometric graph is the same for the same seed, and respects the link cap")
    func randomGeometricIsSeededAndCapped() {
        let one = MeshGraph.randomGeometric(nodes: 80, side: 90, range: 25, maxLinks: 5, seed: 3)
        let two = MeshGraph.randomGeometric(nodes: 80, side: 90, range: 25, maxLinks: 5, seed: 3)
        let other = MeshGraph.randomGeometric(nodes: 80, side: 90, range: 25, maxLinks: 5, seed: 4)
        #expect(one.edges == two.edges)
        #expect(one.edges != other.edges)
        #expect(one.maxDegree <= 5 && !one.edges.isEmpty)
        #expect(one.edges.allSatisfy { $0.a < $0.b })
        #expect(Set(one.edges).count == one.edges.count)
    }

    @Test("The range is chosen to hit the asked mean degree", arguments: [4.0, 8.0, 10.0])
    func meanDegreeIsHit(target: Double) {
        let graph = MeshGraph.randomGeometric(nodes: 200, meanDegree: target, maxLinks: 16, seed: 1)
        #expect(abs(graph.meanDegree - target) < 0.1, "got \(graph.meanDegree)")
    }

    @Test("Lines and rings have the links and hop distances they should")
    func lineAndRing() {
        let line = MeshGraph.line(nodes: 6)
        #expect(line.edges.count == 5 && line.maxDegree == 2)
        #expect(line.distances(from: 0) == [0, 1, 2, 3, 4, 5])
        #expect(line.within(3, of: 0) == [1, 2, 3])
        let ring = MeshGraph.ring(nodes: 6)
        #expect(ring.edges.count == 6 && ring.neighbours.allSatisfy { $0.count == 2 })
        #expect(ring.distances(from: 0) == [0, 1, 2, 3, 2, 1])
        #expect(ring.within(2, of: 0) == [1, 2, 4, 5])
    }

    @Test("Distances say nil for nodes that cannot be reached")
    func disconnected() {
        let graph = MeshGraph(nodeCount: 4, edges: [MeshGraph.Edge(a: 0, b: 1)])
        #expect(graph.distances(from: 0) == [0, 1, nil, nil])
    }
}
