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
