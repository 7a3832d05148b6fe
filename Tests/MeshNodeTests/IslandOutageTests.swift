import Flooding
import MeshNode
import MeshProtocol
import MeshSim
import Testing

/// An island with two gateways keeps working on its own while its broker is away
/// (docs/OPERATIONS.md "Outages", PROTOCOL.md Part C "Managed flooding" and F5).
///
/// G1 — N1 — N2 and N1 — G2; G1 and G2 are gateways on one broker. While the broker is up, G2
/// hands N1 the re-based copies of G1's messages with route `[G1, G2]` (the origin counts as the
/// sender), and N1 hands G1 those of G2's. Had N1 taken that as G2's claim of a link to G1, it
/// would skip G2 for G1's messages once the broker is gone, and G2 would not get them at all.
@Suite("An island while its broker is away")
struct IslandOutageTests {
    static let g1 = 0, n1 = 1, n2 = 2, g2 = 3

    @Test("Every node of the island delivers every message sent while the broker is away",
          arguments: [RelaySchedulerChoice.managed(ManagedFloodingParameters()), .plain])
    func everyNodeDeliversDuringTheOutage(scheduler: RelaySchedulerChoice) throws {
        var configuration = EngineConfiguration()
        configuration.relayScheduler = scheduler
        let sim = try MeshSimulator(nodeCount: 4, seed: 31, configuration: configuration, gateways: [Self.g1, Self.g2])
        sim.connect(Self.g1, Self.n1)
        sim.connect(Self.n1, Self.n2)
        sim.connect(Self.g2, Self.n1)
        sim.run(for: .seconds(3))
        let island = [Self.g1, Self.n1, Self.n2, Self.g2]

        // With the broker up: everyone talks, so every node learns what its neighbours' copies say.
        for round in 0..<3 {
            for origin in island {
                try sim.send(from: origin, text: "up \(round) from \(origin)")
                sim.run(for: .milliseconds(200))
            }
        }
        sim.run(for: .seconds(1))
        #expect(sim.envelopesBridged > 0, "the broker carried the gateways' envelopes")

        // The broker goes away; everyone talks again, within the claims' lifetime (120 s).
        sim.brokerUp = false
        var sentMeanwhile: [Int: MessageID] = [:]
        for round in 0..<2 {
            for origin in island {
                sentMeanwhile[origin] = try sim.send(from: origin, text: "down \(round) from \(origin)")
                sim.run(for: .milliseconds(300))
            }
        }
        sim.run(for: .seconds(1))
        for node in island {
            let delivered = Set(sim.nodes[node].delivered.map(\.messageID))
            for (origin, id) in sentMeanwhile where origin != node {
                #expect(delivered.contains(id), "node \(node) lacks the last message from \(origin) sent during the outage")
            }
            let texts = sim.nodes[node].delivered.map(\.text)
            #expect(texts.count == Set(texts).count, "node \(node) delivered a message twice")
        }
        let down = island.map { node in sim.nodes[node].delivered.filter { $0.text.hasPrefix("down") }.count }
        #expect(down == [6, 6, 6, 6], "each node delivers the 6 messages the other three sent meanwhile")
    }
}
