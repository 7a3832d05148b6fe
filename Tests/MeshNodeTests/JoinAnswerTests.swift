import MeshNode
import MeshProtocol
import MeshSim
import Testing

@Suite("Join notice answers")
struct JoinAnswerTests {
    /// C links to B long before A does, so C's first join notice reaches nobody but B.
    /// Without an answer, A would not learn C's keys until C's next refresh (10 minutes).
    @Test("A late joiner learns the keys of a node two hops away within the coalescing window",
          arguments: [UInt64(71), 72, 73])
    func lateJoinerLearnsEarlierNode(seed: UInt64) throws {
        let sim = try MeshSimulator(nodeCount: 3, seed: seed)
        sim.connect(1, 2)
        sim.run(for: .seconds(30))
        #expect(!sim.learnedFromJoin(0, origin: 2))
        sim.connect(0, 1)
        sim.run(for: .seconds(12))
        #expect(sim.learnedFromJoin(2, origin: 0))
        #expect(sim.learnedFromJoin(0, origin: 2))
        let id = try sim.send(from: 0, text: "hello C", to: 2)
        sim.run(for: .seconds(1))
        #expect(sim.deliveries(of: id) == [2: 1])
    }

    @Test("Answers stop once both ends know each other: no ping-pong of join notices")
    func answersTerminate() throws {
        let sim = try MeshSimulator(nodeCount: 3, seed: 74)
        sim.connect(1, 2)
        sim.run(for: .seconds(30))
        sim.connect(0, 1)
        sim.run(for: .seconds(30))
        let settled = sim.nodes.map { $0.engine.kindCounters[.joinNotice].sent }
        sim.run(for: .seconds(300))
        // Well inside the 10-minute refresh: nobody sends another join notice.
        #expect(sim.nodes.map { $0.engine.kindCounters[.joinNotice].sent } == settled)
        // C (one neighbour) sent one notice when B arrived and one answer to A's first notice;
        // A learned C from B's catch-up before its own first notice went out, so that one notice
        // both announced A and answered C. Answers are notices from known nodes, so they end it.
        #expect(settled[0] == 1)
        #expect(settled[2] == 2)
    }

    /// Answers are paced: without a limit, every newcomer at an event would make every node
    /// within two hops flood a join notice of its own.
    @Test("Under churn a node answers at most once per answer interval, and every newcomer still learns it")
    func churnIsAnsweredInBatches() throws {
        // C (node 1) hangs off hub B (node 0); six newcomers (2...7) link to B five seconds apart.
        let sim = try MeshSimulator(nodeCount: 8, seed: 76)
        sim.connect(0, 1)
        sim.run(for: .seconds(30))
        let before = sim.nodes[1].engine.kindCounters[.joinNotice].sent
        for newcomer in 2..<8 {
            sim.connect(newcomer, 0)
            sim.run(for: .seconds(5))
        }
        sim.run(for: .seconds(40))
        // Newcomers arrive from t = 30 s to 55 s: C answers the first at once and the other
        // five together one answer interval (30 s) later. C has one neighbour, so the counter
        // counts notices.
        #expect(sim.nodes[1].engine.kindCounters[.joinNotice].sent - before == 2)
        for newcomer in 2..<8 { #expect(sim.learnedFromJoin(newcomer, origin: 1), "newcomer \(newcomer)") }
    }

    @Test("A join notice from a node already known gets no answer")
    func knownNodeGetsNoAnswer() throws {
        var configuration = EngineConfiguration()
        configuration.joinNoticeRefreshInterval = .seconds(120)
        let sim = try MeshSimulator(nodeCount: 3, seed: 75, configuration: configuration)
        _ = sim.line([0, 1, 2])
        sim.run(for: .seconds(60))
        let before = sim.nodes.map { $0.engine.kindCounters[.joinNotice].sent }
        sim.run(for: .seconds(125))
        let after = sim.nodes.map { $0.engine.kindCounters[.joinNotice].sent }
        // One refresh each (counted once per neighbour it went to), and no answers to them.
        #expect(zip(before, after).map { $1 - $0 } == [1, 2, 1], "before \(before), after \(after)")
    }
}
