import MeshNode
import MeshProtocol
import MeshSim
import Testing

@Suite("Neighbours and links")
struct LinkLifecycleTests {
    @Test("A neighbour on two links survives losing one and departs only after the grace")
    func twoLinks() throws {
        let sim = try MeshSimulator(nodeCount: 2, seed: 31)
        let first = sim.connect(0, 1)
        let second = sim.connect(1, 0)
        sim.run(for: .seconds(3))
        #expect(sim.nodes[0].engine.neighbourSnapshots().first?.links.count == 2)
        sim.disconnect(first)
        sim.run(for: .seconds(1))
        let neighbour = try #require(sim.nodes[0].engine.neighbourSnapshots().first)
        #expect(neighbour.nodeID == sim.nodes[1].nodeID)
        #expect(neighbour.links.count == 1)
        #expect(neighbour.profile != nil)
        let id = try sim.send(from: 0, text: "still here", to: 1)
        sim.run(for: .seconds(1))
        #expect(sim.deliveries(of: id) == [1: 1])

        sim.disconnect(second)
        sim.run(for: .seconds(20))
        #expect(sim.nodes[0].engine.neighbourSnapshots().first?.inGrace == true)
        sim.run(for: .seconds(15))
        #expect(sim.nodes[0].engine.neighbourSnapshots().isEmpty)
        #expect(sim.nodes[0].engine.linkCounters.departures == 1)
    }

    @Test("A link returning within the grace restores the neighbour without a new join")
    func returnWithinGrace() throws {
        let sim = try MeshSimulator(nodeCount: 2, seed: 32)
        let connection = sim.connect(0, 1)
        sim.run(for: .seconds(3))
        sim.disconnect(connection)
        sim.run(for: .seconds(10))
        sim.reconnect(connection)
        sim.run(for: .seconds(3))
        let joined = sim.nodes[0].events.filter { if case .neighbourJoined = $0 { return true } else { return false } }
        let returned = sim.nodes[0].events.filter { if case .neighbourReturned = $0 { return true } else { return false } }
        #expect(joined.count == 1)
        #expect(returned.count == 1)
        #expect(sim.nodes[0].engine.linkCounters.departures == 0)
    }

    @Test("Link flaps and a restart: keys re-converge in two messages and the next message gets through",
          arguments: ["flap", "restart"])
    func reconverge(scenario: String) throws {
        let sim = try MeshSimulator(nodeCount: 3, seed: 33)
        let connections = sim.line([0, 1, 2])
        sim.run(for: .seconds(5))
        let before = (0..<3).map { sim.keyExchangesSent($0) }
        if scenario == "flap" {
            sim.disconnect(connections[0])
            sim.run(for: .seconds(2))
            sim.reconnect(connections[0])
            sim.run(for: .seconds(2))
            #expect(sim.keyExchangesSent(0) - before[0] + sim.keyExchangesSent(1) - before[1] == 2)
        } else {
            sim.restart(1)
            sim.run(for: .seconds(2))
            // Node 1's counters restart from zero with its new engine: two links, two messages each.
            let total = sim.keyExchangesSent(0) - before[0] + sim.keyExchangesSent(1) + sim.keyExchangesSent(2) - before[2]
            #expect(total == 4)
        }
        let id = try sim.send(from: 0, text: "after \(scenario)")
        sim.run(for: .seconds(1))
        #expect(sim.deliveries(of: id) == [1: 1, 2: 1])
    }

    @Test("A link that never produces a profile is closed at the handshake timeout")
    func handshakeTimeout() throws {
        let sim = try MeshSimulator(nodeCount: 2, seed: 34)
        sim.connect(0, 1, spec: SimLinkSpec(loss: 1.0))
        sim.run(for: .seconds(11))
        #expect(sim.nodes[0].engine.linkCounters.handshakeTimeouts == 1)
        #expect(sim.nodes[0].engine.linkSnapshots().isEmpty)
    }
}

@Suite("Join notice refresh")
struct JoinNoticeRefreshTests {
    @Test("Repeated join notices keep nodes two hops away from forgetting each other's keys",
          arguments: [(Duration.seconds(120), true), (Duration.seconds(3600), false)])
    func refresh(interval: Duration, remembered: Bool) throws {
        var configuration = EngineConfiguration()
        configuration.joinNoticeRefreshInterval = interval
        configuration.knownNodeLifetime = .seconds(300)
        let sim = try MeshSimulator(nodeCount: 3, seed: 61, configuration: configuration)
        _ = sim.line([0, 1, 2])
        sim.run(for: .seconds(720))
        let known = sim.nodes[0].engine.remoteNodeSnapshots().contains { $0.nodeID == sim.nodes[2].nodeID }
        #expect(known == remembered)
        if remembered {
            let id = try sim.send(from: 0, text: "still reachable", to: 2)
            sim.run(for: .seconds(1))
            #expect(sim.deliveries(of: id) == [2: 1])
        } else {
            #expect(throws: SendFailure.unknownDestination(sim.nodes[2].nodeID)) { try sim.send(from: 0, text: "x", to: 2) }
        }
    }
}
