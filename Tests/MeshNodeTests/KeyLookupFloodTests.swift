import Flooding
import MeshProtocol
import Testing
@testable import MeshNode
@testable import MeshSim

@Suite("A neighbour flooding key requests (PROTOCOL.md H3)")
struct KeyLookupFloodTests {
    static let floodCount = 2000
    static let floodSeconds = 10.0

    @Test("M's requests for random IDs and for C are relayed and answered only within B's budgets; A's probes reach C",
          arguments: SchedulerName.allCases)
    func requestFlood(scheduler: SchedulerName) throws {
        let limits = KeyLookupLimits()
        let (star, probes) = try Self.run(scheduler: scheduler, lookup: limits)
        let b = star.sim.nodes[FloodStar.b].engine
        let seconds = Self.floodSeconds + 2
        #expect(probes.sent == 20 && probes.onTime == probes.sent, "probes on time: \(probes.onTime) of \(probes.sent)")
        // What B relays or answers from M: its request share at B.
        let requestShare = limits.requestBurstPerNeighbour + limits.requestsPerNeighbourPerSecond * seconds
        let reachedC = Int(star.sim.nodes[FloodStar.c].engine.kindCounters[.keyRequest].received)
        #expect(Double(reachedC) <= requestShare, "\(reachedC) of \(Self.floodCount) requests reached C")
        // Answers B sent for M's requests: its per-neighbour answer budget.
        let answerShare = limits.answerBurstPerNeighbour + limits.answersPerNeighbourPerSecond * seconds
        let answers = b.lookupCounters.answersSent
        #expect(answers > 0 && Double(answers) <= answerShare, "B answered \(answers) requests")
        print("key request flood (\(scheduler)): \(reachedC) requests reached C, B answered \(answers), probes \(probes.onTime)/\(probes.sent)")
        // Without the lookup budgets (Part E's share alone) the same flood passes B many times over.
        let open = KeyLookupLimits(
            answersPerSecond: 1e6, answerBurst: 1e6, answersPerNeighbourPerSecond: 1e6, answerBurstPerNeighbour: 1e6,
            answersPerTargetPerSecond: 1e6, answerBurstPerTarget: 1e6, requestsPerNeighbourPerSecond: 1e6,
            requestBurstPerNeighbour: 1e6, requestsPerSecond: 1e6, requestBurst: 1e6)
        let (openStar, _) = try Self.run(scheduler: scheduler, lookup: open)
        let openReached = Int(openStar.sim.nodes[FloodStar.c].engine.kindCounters[.keyRequest].received)
        #expect(openReached >= 100, "without lookup budgets \(openReached) requests reached C")
    }

    /// M floods B with key requests beside A's probes to C.
    static func run(scheduler: SchedulerName, lookup: KeyLookupLimits) throws -> (FloodStar, Probes) {
        var configuration = EngineConfiguration()
        configuration.relayScheduler = scheduler.choice
        configuration.lookup = lookup
        let star = try FloodStar(configuration: configuration)
        let mID = star.sim.nodes[FloodStar.m].nodeID
        let cID = star.sim.nodes[FloodStar.c].nodeID
        let probes = Probes()
        star.scheduleProbes(every: .milliseconds(500), count: 20, deadline: .seconds(1), record: probes)
        // 200 requests a second, each from a made-up requester M claims to relay; every third
        // one asks for C (whose profile B holds), the rest for random IDs.
        star.flood(count: Self.floodCount, over: Self.floodSeconds) { index, star in
            let requester = NodeID(testIndex: 70_000 + index)
            let target = index % 3 == 0 ? cID : NodeID(testIndex: 90_000 + index)
            return Envelope(
                kind: .keyRequest, messageID: floodMessageID(index, salt: 21), origin: requester, hops: 1, route: [requester, mID],
                timestamp: star.wallNow, payload: KeyRequestBody(target: target, tag: UInt64(index)).encoded())
        }
        star.sim.run(for: .seconds(Int64(Self.floodSeconds) + 2))
        return (star, probes)
    }
}
