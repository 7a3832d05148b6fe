import MeshProtocol
import Testing
@testable import MeshNode

@Suite("Key lookup: who answers, when, and how much (PROTOCOL.md Part H)")
struct KeyAnswerPlannerTests {
    private let target = NodeID(testIndex: 7)
    private let requester = NodeID(testIndex: 1)
    private let neighbour = NodeID(testIndex: 2)

    private func request(_ tag: UInt64, from requester: NodeID? = nil) -> KeyRequestKey {
        KeyRequestKey(requester: requester ?? self.requester, tag: tag)
    }

    @Test("A node without the profile relays and never answers; the target and holders answer and do not relay")
    func answerOrRelay() {
        var planner = KeyAnswerPlanner(limits: KeyLookupLimits(), seed: 1)
        let none = planner.consider(request(1), target: target, from: neighbour, holder: .none, now: .zero)
        #expect(none == .init(relay: true, answerAt: nil))
        let held = planner.consider(request(2), target: target, from: neighbour, holder: .cached, now: .zero)
        #expect(!held.relay)
        #expect(held.answerAt != nil)
        let own = planner.consider(request(3, from: NodeID(testIndex: 3)), target: target, from: neighbour, holder: .target, now: .zero)
        #expect(!own.relay)
        #expect(planner.pendingCount == 2)
    }

    @Test("The target answers within a quarter of the delay, a holder within the rest", arguments: [UInt64(1), 2, 3, 99])
    func delays(seed: UInt64) {
        let limits = KeyLookupLimits(answerDelay: .milliseconds(200))
        var planner = KeyAnswerPlanner(limits: limits, seed: seed)
        let now = Duration.seconds(5)
        for index in 0..<20 {
            let asker = NodeID(testIndex: 100 + index)
            let own = planner.consider(request(1, from: asker), target: target, from: NodeID(testIndex: 200 + index), holder: .target, now: now)
            let cached = planner.consider(
                request(2, from: asker), target: NodeID(testIndex: 300 + index), from: NodeID(testIndex: 400 + index),
                holder: .cached, now: now + .seconds(10))
            if let at = own.answerAt { #expect(at >= now && at <= now + .milliseconds(50)) }
            if let at = cached.answerAt { #expect(at >= now + .seconds(10) + .milliseconds(50) && at <= now + .seconds(10) + .milliseconds(200)) }
        }
    }

    @Test("An answer heard before ours is due cancels ours; nothing is sent for it")
    func cancellation() throws {
        var planner = KeyAnswerPlanner(limits: KeyLookupLimits(), seed: 4)
        let decision = planner.consider(request(9), target: target, from: neighbour, holder: .cached, now: .zero)
        let due = try #require(decision.answerAt)
        let first = planner.heardAnswer(request(9))
        let second = planner.heardAnswer(request(9))
        #expect(first && !second)
        let sent = planner.due(now: due + .seconds(1))
        #expect(sent.isEmpty)
        #expect(planner.counters.answersCancelled == 1)
        #expect(planner.counters.answersSent == 0)
    }

    @Test("Due answers leave the schedule once, earliest first")
    func dueOnce() {
        var planner = KeyAnswerPlanner(limits: KeyLookupLimits(), seed: 5)
        _ = planner.consider(request(1), target: target, from: neighbour, holder: .cached, now: .zero)
        _ = planner.consider(request(2, from: NodeID(testIndex: 9)), target: target, from: neighbour, holder: .target, now: .zero)
        let early = planner.due(now: .zero)
        let sent = planner.due(now: .seconds(1))
        let again = planner.due(now: .seconds(2))
        #expect(early.isEmpty && again.isEmpty)
        #expect(sent.count == 2)
        #expect(sent[0].due <= sent[1].due)
        #expect(planner.counters.answersSent == 2)
    }

    @Test("No second answer for the same requester and target within the window, with a new tag too")
    func repeatWindow() {
        let limits = KeyLookupLimits(repeatWindow: .seconds(30))
        var planner = KeyAnswerPlanner(limits: limits, seed: 6)
        let first = planner.consider(request(1), target: target, from: neighbour, holder: .cached, now: .zero)
        _ = planner.due(now: .seconds(1))
        let repeated = planner.consider(request(2), target: target, from: neighbour, holder: .cached, now: .seconds(29))
        let later = planner.consider(request(3), target: target, from: neighbour, holder: .cached, now: .seconds(31))
        #expect(first.answerAt != nil)
        #expect(repeated.answerAt == nil)
        #expect(planner.counters.answersRepeated == 1)
        #expect(later.answerAt != nil)
    }

    @Test("Answers to one neighbour's requests stop at its burst, then follow its rate", arguments: [2.0, 4.0, 8.0])
    func perNeighbourAnswerBudget(burst: Double) {
        let limits = KeyLookupLimits(
            answersPerSecond: 1000, answerBurst: 1000, answersPerNeighbourPerSecond: 0.5, answerBurstPerNeighbour: burst,
            answersPerTargetPerSecond: 1000, answerBurstPerTarget: 1000, requestsPerNeighbourPerSecond: 1000,
            requestBurstPerNeighbour: 1000, requestsPerSecond: 1000, requestBurst: 1000)
        var planner = KeyAnswerPlanner(limits: limits, seed: 7)
        var answered = 0
        for index in 0..<100 {
            let decision = planner.consider(
                request(UInt64(index), from: NodeID(testIndex: 1000 + index)), target: NodeID(testIndex: 5000 + index),
                from: neighbour, holder: .cached, now: .milliseconds(Int64(index)))
            if decision.answerAt != nil { answered += 1 }
        }
        #expect(answered == Int(burst))
        #expect(planner.counters.answersOverBudget == UInt64(100 - Int(burst)))
        // Another neighbour's requests are still answered.
        let other = planner.consider(request(1, from: NodeID(testIndex: 9999)), target: target, from: NodeID(testIndex: 3), holder: .cached, now: .seconds(1))
        #expect(other.answerAt != nil)
    }

    @Test("Answers about one target and answers in total are capped")
    func perTargetAndTotal() {
        let limits = KeyLookupLimits(
            answersPerSecond: 1, answerBurst: 5, answersPerNeighbourPerSecond: 1000, answerBurstPerNeighbour: 1000,
            answersPerTargetPerSecond: 0.1, answerBurstPerTarget: 2)
        var planner = KeyAnswerPlanner(limits: limits, seed: 8)
        var aboutTarget = 0
        for index in 0..<10 where planner.consider(
            request(1, from: NodeID(testIndex: 100 + index)), target: target, from: NodeID(testIndex: 200 + index), holder: .cached,
            now: .zero
        ).answerAt != nil {
            aboutTarget += 1
        }
        #expect(aboutTarget == 2)
        var total = 0
        for index in 0..<10 where planner.consider(
            request(1, from: NodeID(testIndex: 300 + index)), target: NodeID(testIndex: 400 + index),
            from: NodeID(testIndex: 500 + index), holder: .cached, now: .zero
        ).answerAt != nil {
            total += 1
        }
        #expect(total == 3)
    }

    @Test("A neighbour flooding requests for random IDs gets its request share relayed and no more; others still get through")
    func requestFlood() {
        let limits = KeyLookupLimits()
        var planner = KeyAnswerPlanner(limits: limits, seed: 9)
        let flooder = NodeID(testIndex: 66)
        let honest = NodeID(testIndex: 3)
        var relayed = 0
        var honestRelayed = 0
        // 100 requests a second from the flooder for 10 s; one a second from an honest neighbour.
        for step in 0..<1000 {
            let now = Duration.milliseconds(Int64(step) * 10)
            if planner.consider(
                request(UInt64(step), from: NodeID(testIndex: 10_000 + step)), target: NodeID(testIndex: 50_000 + step),
                from: flooder, holder: .none, now: now
            ).relay {
                relayed += 1
            }
            if step % 100 == 0,
                planner.consider(request(UInt64(step), from: requester), target: NodeID(testIndex: 90_000 + step), from: honest, holder: .none, now: now).relay
            {
                honestRelayed += 1
            }
        }
        let share = limits.requestBurstPerNeighbour + limits.requestsPerNeighbourPerSecond * 10
        #expect(Double(relayed) <= share + 1)
        #expect(honestRelayed == 10)
    }
}
