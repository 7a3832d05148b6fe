import MeshNode
import MeshProtocol
import MeshSim
import Testing

/// Connections for the named topology over `count` nodes.
private func topology(_ name: String, count: Int) -> [(Int, Int)] {
    switch name {
    case "ring": return (0..<count).map { ($0, ($0 + 1) % count) }
    default: return (0..<count).flatMap { a in ((a + 1)..<count).map { (a, $0) } }
    }
}

@Suite("Ring and full mesh")
struct FloodingTopologyTests {
    @Test("Every node delivers each message exactly once, none is sent back, no loops",
          arguments: [("ring", 6), ("mesh", 6)])
    func exactlyOnce(name: String, count: Int) throws {
        let sim = try MeshSimulator(nodeCount: count, seed: 11)
        for (a, b) in topology(name, count: count) { sim.connect(a, b) }
        sim.run(for: .seconds(6))
        var ids: [(Int, MessageID)] = []
        for origin in 0..<count {
            ids.append((origin, try sim.send(from: origin, text: "from \(origin)")))
            sim.run(for: .milliseconds(500))
        }
        sim.run(for: .seconds(3))
        for (origin, id) in ids {
            let expected = Dictionary(uniqueKeysWithValues: (0..<count).filter { $0 != origin }.map { ($0, 1) })
            #expect(sim.deliveries(of: id) == expected, "message from \(origin)")
        }
        #expect(sim.trace.sentBack == 0)
        // A flood crosses every link at most once in each direction.
        let links = topology(name, count: count).count
        let messageCopies = sim.trace.transmissions[MessageKind.message.rawValue] ?? 0
        #expect(messageCopies <= count * links * 2)
        print("\(name) of \(count): \(messageCopies) message transmissions for \(count) messages over \(links) links")
    }
}

@Suite("No heartbeat storm")
struct HeartbeatStormTests {
    @Test("Full mesh of 10 nodes for 10 virtual minutes: heartbeats per node per interval equal its degree")
    func heartbeatsEqualDegree() throws {
        let sim = try MeshSimulator(nodeCount: 10, seed: 21)
        for (a, b) in topology("mesh", count: 10) { sim.connect(a, b, spec: SimLinkSpec(mtu: 247)) }
        sim.run(for: .seconds(30))
        let before = sim.nodes.map { $0.transfersSent[MessageKind.heartbeat.rawValue] ?? 0 }
        sim.run(for: .seconds(600))
        let intervals = 60
        var perNode: [Double] = []
        for (index, node) in sim.nodes.enumerated() {
            let sent = (node.transfersSent[MessageKind.heartbeat.rawValue] ?? 0) - before[index]
            perNode.append(Double(sent) / Double(intervals))
            #expect(sent == 9 * intervals, "node \(index) sent \(sent) heartbeats")
            #expect(node.engine.kindCounters[.heartbeat].relayed == 0)
        }
        print("heartbeat messages per node per 10 s interval (degree 9):", perNode)
    }
}
