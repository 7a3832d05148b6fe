import MeshNode
import MeshProtocol
import MeshSim

/// Helpers shared by the simulator tests.
extension MeshSimulator {
    /// Connects consecutive nodes of `path` and lets the handshakes finish.
    func line(_ path: [Int], spec: SimLinkSpec = SimLinkSpec()) -> [SimConnection] {
        zip(path, path.dropFirst()).map { connect($0, $1, spec: spec) }
    }

    /// Nodes that delivered the message with `id`, and how many times each did.
    func deliveries(of id: MessageID) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for (index, node) in nodes.enumerated() {
            let count = node.delivered.filter { $0.messageID == id }.count
            if count > 0 { counts[index] = count }
        }
        return counts
    }

    /// True when node `index` learned `origin` from a join notice.
    func learnedFromJoin(_ index: Int, origin: Int) -> Bool {
        nodes[index].events.contains { event in
            if case .nodeLearned(let profile, _) = event { return profile.nodeID == nodes[origin].nodeID }
            return false
        }
    }

    /// The number of ready neighbours node `index` has.
    func readyNeighbourCount(_ index: Int) -> Int {
        nodes[index].engine.neighbourSnapshots().filter { neighbour in
            neighbour.links.contains { $0.phase == .ready }
        }.count
    }

    /// Key exchange messages node `index` has sent so far.
    func keyExchangesSent(_ index: Int) -> UInt64 { nodes[index].engine.kindCounters[.keyExchange].sent }
}

/// People spread over a floor, linking to those within radio range (at most `maxDegree` links each):
/// `MeshGraph.randomGeometric` as the older tests name it.
struct Floor {
    let edges: [(Int, Int)]
    let count: Int

    init(people count: Int, side: Double, range: Double, maxDegree: Int, seed: UInt64) {
        let graph = MeshGraph.randomGeometric(nodes: count, side: side, range: range, maxLinks: maxDegree, seed: seed)
        self.edges = graph.edges.map { ($0.a, $0.b) }
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

/// Nodes within `hops` of `origin`.
func reachable(from origin: Int, hops: Int, edges: [(Int, Int)]) -> Set<Int> {
    var frontier: Set<Int> = [origin]
    var seen: Set<Int> = [origin]
    for _ in 0..<hops {
        var next: Set<Int> = []
        for (a, b) in edges {
            if frontier.contains(a), !seen.contains(b) { next.insert(b) }
            if frontier.contains(b), !seen.contains(a) { next.insert(a) }
        }
        seen.formUnion(next)
        frontier = next
    }
    seen.remove(origin)
    return seen
}
