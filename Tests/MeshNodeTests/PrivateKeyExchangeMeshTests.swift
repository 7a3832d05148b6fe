import MeshNode
import MeshProtocol
import MeshSim
import Testing

/// The private key exchange between nodes of this version, and beside a node that speaks only
/// key exchange version 1 (PROTOCOL.md D3b, "Nodes of version 1").
@Suite("Private key exchange in a mesh, and beside a node of version 1")
struct PrivateKeyExchangeMeshTests {
    static func configuration(_ policy: KeyExchangePolicy) -> EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.keyExchange = policy
        return configuration
    }

    @Test("Nodes of this version key every link privately, and relay as before")
    func allPrivate() throws {
        let sim = try MeshSimulator(nodeCount: 3, seed: 41)
        _ = sim.line([0, 1, 2])
        sim.run(for: .seconds(5))
        #expect(sim.readyNeighbourCount(1) == 2)
        let id = try sim.send(from: 0, text: "private links")
        sim.run(for: .seconds(2))
        #expect(sim.deliveries(of: id) == [1: 1, 2: 1])
        for (index, node) in sim.nodes.enumerated() {
            #expect(node.engine.linkCounters.legacyLinks == 0)
            #expect(node.engine.linkCounters.privateLinks == (index == 1 ? 2 : 1))
            #expect(node.engine.linkCounters.identityProofsReceived >= node.engine.linkCounters.privateLinks)
            // No frame of version 1 was sent, and none was unknown to anyone.
            #expect(node.engine.linkCounters.unknownKinds == 0)
        }
    }

    @Test("A node of version 1 in the middle of a line links both ways in version 1 and relays")
    func olderNodeInTheMiddle() throws {
        let sim = try MeshSimulator(
            nodeCount: 3, seed: 42, nodeConfigurations: [1: Self.configuration(.legacyOnly)])
        _ = sim.line([0, 1, 2])
        sim.run(for: .seconds(6))
        #expect(sim.readyNeighbourCount(1) == 2)
        let id = try sim.send(from: 0, text: "across an older node")
        sim.run(for: .seconds(2))
        #expect(sim.deliveries(of: id) == [1: 1, 2: 1])
        let direct = try sim.send(from: 2, text: "sealed for A", to: 0)
        sim.run(for: .seconds(2))
        #expect(sim.deliveries(of: direct) == [0: 1])
        for index in [0, 2] {
            #expect(sim.nodes[index].engine.linkCounters.legacyLinks == 1)
            #expect(sim.nodes[index].engine.linkCounters.privateLinks == 0)
            #expect(sim.nodes[index].events.contains { if case .legacyLink = $0 { true } else { false } })
        }
        // The older node saw the hellos as frames of a kind it does not know, and nothing else.
        #expect(sim.nodes[1].engine.linkCounters.unknownKinds >= 2)
        #expect(sim.nodes[1].engine.linkCounters.keyExchangeFailures == 0)
    }

    @Test("private_only refuses a node of version 1 and keeps its private links")
    func privateOnlyRefuses() throws {
        let sim = try MeshSimulator(
            nodeCount: 3, seed: 43, configuration: Self.configuration(.privateOnly),
            nodeConfigurations: [1: Self.configuration(.legacyOnly)])
        _ = sim.line([0, 1])
        _ = sim.line([0, 2])
        sim.run(for: .seconds(6))
        #expect(sim.nodes[0].engine.linkCounters.legacyRefused >= 1)
        #expect(sim.nodes[0].engine.linkCounters.legacyLinks == 0)
        #expect(sim.nodes[0].engine.linkCounters.privateLinks >= 1)
        #expect(sim.readyNeighbourCount(0) == 1)
        let id = try sim.send(from: 0, text: "only to C")
        sim.run(for: .seconds(2))
        #expect(sim.deliveries(of: id) == [2: 1])
    }
}
