import MeshCrypto
import MeshNode
import MeshProtocol
import MeshSim
import Testing

@Suite("Messages through link flaps")
struct LinkFlapTests {
    /// A–B–C; the B–C link drops, A broadcasts, the link comes back inside C's grace.
    private func flapScenario(hold: HoldLimits, downFor: Duration) throws -> (sim: MeshSimulator, id: MessageID) {
        let sim = try MeshSimulator(nodeCount: 3, seed: 71, configuration: EngineConfiguration(hold: hold))
        let links = sim.line([0, 1, 2])
        // Past the join notices and their answers, so only the chat message is held.
        sim.run(for: .seconds(12))
        sim.disconnect(links[1])
        sim.run(for: .milliseconds(500))
        let id = try sim.send(from: 0, text: "while C's link is down")
        sim.run(for: downFor)
        sim.reconnect(links[1])
        sim.run(for: .seconds(2))
        return (sim, id)
    }

    @Test("A relay holds a message for a neighbour in its grace and sends it, unchanged, when the link is back")
    func heldUntilTheLinkReturns() throws {
        let (sim, id) = try flapScenario(hold: HoldLimits(), downFor: .seconds(5))
        #expect(sim.deliveries(of: id) == [1: 1, 2: 1])
        #expect(sim.nodes[2].delivered.first { $0.messageID == id }?.hops == 1, "the held copy keeps its hop count")
        let counters = sim.nodes[1].engine.holdCounters
        #expect(counters.held == 1 && counters.sentLate == 1 && counters.expired == 0, "\(counters)")
        #expect(sim.nodes[1].engine.heldMessageCount == 0)
    }

    @Test("Without holding the same flap loses the message")
    func lostWithoutHolding() throws {
        let (sim, id) = try flapScenario(hold: .disabled, downFor: .seconds(5))
        #expect(sim.deliveries(of: id) == [1: 1])
        #expect(sim.nodes[1].engine.holdCounters == HoldCounters())
    }

    @Test("A message held longer than its age limit expires instead of going out late")
    func expiresPastTheAgeLimit() throws {
        let (sim, id) = try flapScenario(hold: HoldLimits(maxAge: .seconds(3)), downFor: .seconds(5))
        #expect(sim.deliveries(of: id) == [1: 1])
        let counters = sim.nodes[1].engine.holdCounters
        #expect(counters.held == 1 && counters.expired == 1 && counters.sentLate == 0)
    }

    @Test("What a node originates while its only neighbour is in its grace is held, and said so")
    func originHolds() throws {
        let sim = try MeshSimulator(nodeCount: 2, seed: 72)
        let link = sim.connect(0, 1)
        sim.run(for: .seconds(2))
        sim.disconnect(link)
        sim.run(for: .milliseconds(100))
        let (sent, actions) = try sim.nodes[0].engine.send(text: "queued", now: sim.now)
        #expect(sent.sentTo == 0 && sent.heldFor == 1)
        #expect(!actions.contains { if case .send = $0 { true } else { false } })
        sim.reconnect(link)
        sim.run(for: .seconds(2))
        #expect(sim.deliveries(of: sent.messageID) == [1: 1])
    }

    @Test("A node with no neighbour at all refuses to send instead of losing the message")
    func noNeighbours() throws {
        let engine = MeshEngine(identity: try NodeIdentity.generate())
        #expect(throws: SendFailure.noNeighbours) { try engine.send(text: "anyone?", now: .zero) }
    }

    @Test("A message sent while the other end still waits for our profile is accepted, not dropped")
    func readinessDisagreement() throws {
        // Every profile frame from A is lost: A counts the link ready (it has B's profile),
        // B does not (it never gets A's). What A sends in that window must still arrive.
        let pair = try EnginePair(dropping: { toB, frame in toB && frame.first == MessageKind.profile.rawValue })
        #expect(pair.a.neighbourSnapshots().first?.links.first?.phase == .ready)
        #expect(pair.b.linkSnapshots().first?.phase == .awaitingProfile)
        try pair.send("in the window")
        #expect(pair.delivered.map(\.text) == ["in the window"])
    }
}
