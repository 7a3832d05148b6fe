import MeshNode
import MeshSim
import Testing

@Suite("A new neighbour catches up on join notices")
struct JoinCatchUpTests {
    @Test("A node that links just after a newcomer's notice passed its relay still learns the newcomer")
    func lateLinkLearnsNewcomer() throws {
        // Answers are paced so far apart that C, having answered D already, cannot answer A:
        // only B's catch-up can teach A C's keys.
        let sim = try MeshSimulator(
            nodeCount: 4, seed: 81, configuration: EngineConfiguration(joinAnswerInterval: .seconds(100_000)))
        sim.connect(1, 2)
        sim.at(.seconds(3)) { $0.connect(3, 1) }
        sim.at(.seconds(10)) { $0.connect(0, 1) }
        sim.run(for: .seconds(9))
        #expect(sim.learnedFromJoin(2, origin: 3), "C answered D's notice, spending its one answer")
        sim.run(for: .seconds(3))
        #expect(sim.learnedFromJoin(0, origin: 2), "A learned C from B's catch-up")
        #expect(sim.learnedFromJoin(0, origin: 3), "and D")
    }
}
