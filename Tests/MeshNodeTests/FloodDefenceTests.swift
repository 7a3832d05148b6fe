import Flooding
import MeshCrypto
import MeshProtocol
import Testing
@testable import MeshNode
@testable import MeshSim

/// How the flooding neighbour M misbehaves (the table, on the simulator).
enum FloodMode: String, CaseIterable, CustomTestStringConvertible {
    case ownIdentity, freshIdentity, badSignature, directToRandom, freshJoinNotices
    var testDescription: String { rawValue }
}

/// The two relay schedulers, as test arguments.
enum SchedulerName: String, CaseIterable, CustomTestStringConvertible {
    case managed, plain
    var testDescription: String { rawValue }
    var choice: RelaySchedulerChoice { self == .plain ? .plain : .managed(ManagedFloodingParameters()) }
}

@Suite("Flood defences: one neighbour's flood is relayed only up to its share")
struct FloodDefenceTests {
    static let floodCount = 2000
    static let floodSeconds = 10.0

    /// Runs M's flood beside A's probes; returns (envelopes of M reaching C, probes on time, probes sent, B).
    static func run(_ mode: FloodMode, budgets: BudgetLimits, scheduler: RelaySchedulerChoice = .plain) throws
        -> (reached: Int, onTime: Int, sent: Int, b: MeshEngine)
    {
        var configuration = EngineConfiguration()
        configuration.budgets = budgets
        configuration.relayScheduler = scheduler
        let star = try FloodStar(configuration: configuration)
        let mIdentity = star.sim.nodes[FloodStar.m].identity
        let probes = Probes()
        star.scheduleProbes(every: .milliseconds(500), count: 20, deadline: .seconds(1), record: probes)
        star.flood(count: floodCount, over: floodSeconds) { index, star in
            switch mode {
            case .ownIdentity:
                return star.broadcast(by: mIdentity, text: "flood \(index)", messageID: floodMessageID(index, salt: 1))
            case .freshIdentity:
                guard let fresh = try? NodeIdentity.generate() else { return nil }
                return star.broadcast(by: fresh, text: "flood \(index)", messageID: floodMessageID(index, salt: 2))
            case .badSignature:
                guard let fresh = try? NodeIdentity.generate() else { return nil }
                var envelope = star.broadcast(by: fresh, text: "flood \(index)", messageID: floodMessageID(index, salt: 3))
                envelope.signature?[10] ^= 0x01
                return envelope
            case .directToRandom:
                var envelope = Envelope(
                    kind: .message, messageID: floodMessageID(index, salt: 4), origin: mIdentity.nodeID,
                    destination: NodeID(testIndex: 50_000 + index), route: [mIdentity.nodeID], timestamp: star.wallNow,
                    isInnerSealed: true, payload: [UInt8](repeating: 0xEE, count: 120))
                try? EnvelopeSigner.sign(&envelope, with: mIdentity)
                return envelope
            case .freshJoinNotices:
                guard let fresh = try? NodeIdentity.generate() else { return nil }
                var envelope = Envelope(
                    kind: .joinNotice, messageID: floodMessageID(index, salt: 5), origin: fresh.nodeID, hops: 1,
                    route: [fresh.nodeID, star.sim.nodes[FloodStar.m].nodeID], timestamp: star.wallNow,
                    payload: fresh.profile(displayName: "f\(index)", icon: "x", role: .relay).encoded())
                try? EnvelopeSigner.sign(&envelope, with: fresh)
                return envelope
            }
        }
        star.sim.run(for: .seconds(Int64(floodSeconds) + 2))
        let kind: MessageKind = mode == .freshJoinNotices ? .joinNotice : .message
        return (star.reachingC(kind, probes: probes), probes.onTime, probes.sent, star.sim.nodes[FloodStar.b].engine)
    }

    @Test("A's probes reach C within 1 s and M's flood is cut to its share, under both schedulers",
          arguments: FloodMode.allCases, SchedulerName.allCases)
    func floodIsCutToItsShare(mode: FloodMode, scheduler: SchedulerName) throws {
        let limits = BudgetLimits()
        let defended = try Self.run(mode, budgets: limits, scheduler: scheduler.choice)
        // M hands everything over itself: at most its total share (it may claim many upstreams).
        let share = Int(limits.neighbourShareFactor * (limits.messageBurst + limits.messagesPerSecond * (Self.floodSeconds + 2)))
        #expect(defended.sent == 20)
        #expect(defended.onTime == defended.sent, "probes on time: \(defended.onTime) of \(defended.sent)")
        #expect(defended.reached <= share, "\(defended.reached) of \(Self.floodCount) flood envelopes reached C")
        let counters = defended.b.kindCounters[mode == .freshJoinNotices ? .joinNotice : .message]
        #expect(counters.overShare >= UInt64(Self.floodCount - share))
        if mode == .freshJoinNotices {
            #expect(defended.b.remoteNodeSnapshots().count <= EngineConfiguration().maxKnownNodesPerNeighbour)
        }
        // The same flood without budgets passes B unchecked (what the budgets fix).
        let undefended = try Self.run(mode, budgets: .unlimited, scheduler: scheduler.choice)
        if mode == .badSignature {
            #expect(undefended.b.kindCounters[.message].droppedUnverifiable == UInt64(Self.floodCount))
        } else if mode == .freshJoinNotices {
            // A notice M relays arrives with 1 hop: B takes it in but its 2-hop limit ends there.
            #expect(undefended.b.kindCounters[.joinNotice].delivered >= UInt64(Self.floodCount * 9 / 10))
        } else {
            #expect(undefended.reached >= Self.floodCount * 9 / 10, "undefended: \(undefended.reached)")
        }
    }

    @Test("Big messages at full rate (61 KB direct, 4 KB broadcasts) pass only up to M's byte share; A's probes stay on time",
          arguments: SchedulerName.allCases)
    func bigMessagesAreCutToTheByteShare(scheduler: SchedulerName) throws {
        var configuration = EngineConfiguration()
        configuration.relayScheduler = scheduler.choice
        // M's 3,500 frames a second would meet the frame budget first; this measures the byte share.
        configuration.frameBudget = .off
        let star = try FloodStar(configuration: configuration)
        let mIdentity = star.sim.nodes[FloodStar.m].identity
        let probes = Probes()
        star.scheduleProbes(every: .milliseconds(500), count: 20, deadline: .seconds(1), record: probes)
        let count = 200, seconds = 10.0
        star.flood(count: count, over: seconds) { index, star in
            guard index % 2 == 0 else {
                let text = String(repeating: "x", count: ChatBody.maxTextLength)
                return star.broadcast(by: mIdentity, text: text, messageID: floodMessageID(index, salt: 10))
            }
            var envelope = Envelope(
                kind: .message, messageID: floodMessageID(index, salt: 11), origin: mIdentity.nodeID,
                destination: NodeID(testIndex: 80_000 + index), route: [mIdentity.nodeID], timestamp: star.wallNow,
                isInnerSealed: true, payload: [UInt8](repeating: 0xEE, count: 61_000))
            try? EnvelopeSigner.sign(&envelope, with: mIdentity)
            return envelope
        }
        star.sim.run(for: .seconds(Int64(seconds) + 2))
        let limits = BudgetLimits()
        #expect(probes.sent == 20 && probes.onTime == probes.sent, "probes on time: \(probes.onTime) of \(probes.sent)")
        // What B passes on to C is bounded by M's total byte share over the run.
        let byteShare = limits.neighbourShareFactor * (limits.byteBurst + limits.bytesPerSecond * (seconds + 2))
        let reached = star.reachingC(.message, probes: probes)
        #expect(Double(reached) * 4_000 <= byteShare, "\(reached) of \(count) big messages reached C")
        #expect(star.sim.nodes[FloodStar.b].engine.kindCounters[.message].overShare >= UInt64(count / 2))
    }

    @Test("Forged signatures faster than the signature-check budget cost at most that budget, and A still gets through")
    func forgedSignaturesCostBoundedChecks() throws {
        // 5,000 envelopes in 1 s would meet the frame budget first; this measures the check budget.
        var configuration = EngineConfiguration()
        configuration.frameBudget = .off
        let star = try FloodStar(configuration: configuration)
        let probes = Probes()
        star.scheduleProbes(every: .milliseconds(200), count: 10, deadline: .seconds(1), record: probes)
        let forged = (0..<5000).compactMap { _ in try? NodeIdentity.generate() }
        star.flood(count: forged.count, over: 1) { index, star in
            var envelope = star.broadcast(by: forged[index], text: "forged \(index)", messageID: floodMessageID(index, salt: 6))
            envelope.signature?[10] ^= 0x01
            return envelope
        }
        star.sim.run(for: .seconds(3))
        let limits = BudgetLimits()
        let b = star.sim.nodes[FloodStar.b].engine.kindCounters[.message]
        let ceiling = limits.verificationBurst + limits.verificationsPerSecond * 3
        #expect(Double(b.droppedUnverifiable) <= ceiling, "\(b.droppedUnverifiable) checks spent on forgeries")
        #expect(b.droppedVerificationBudget >= 5000 - UInt64(ceiling))
        #expect(probes.onTime == probes.sent && probes.sent == 10)
        #expect(star.sim.nodes[FloodStar.c].engine.kindCounters[.message].received == UInt64(probes.sent))
    }

    @Test("After a flood turned B's seen cache over, a replayed old message is refused as stale, not delivered twice")
    func replayAfterTurnoverIsStale() throws {
        for checking in [true, false] {
            var configuration = EngineConfiguration()
            configuration.budgets = .unlimited
            configuration.seenCapacity = 256
            configuration.freshness = FreshnessRule(maxClockSkew: .seconds(2), enabled: checking)
            let star = try FloodStar(configuration: configuration)
            let aIdentity = star.sim.nodes[FloodStar.a].identity
            let a = star.sim.nodes[FloodStar.a].engine
            var original = star.broadcast(by: aIdentity, text: "only once", messageID: floodMessageID(1, salt: 9))
            original.hops = 0
            original.route = [aIdentity.nodeID]
            try EnvelopeSigner.sign(&original, with: aIdentity)
            _ = a.originate(original, now: star.sim.now)
            star.sim.perform(a.takeActions(), node: FloodStar.a)
            star.sim.run(for: .seconds(1))
            let mIdentity = star.sim.nodes[FloodStar.m].identity
            // 1,000 cheap direct messages turn B's (and C's) 256-ID cache over.
            star.flood(count: 1000, over: 5) { index, star in
                var envelope = Envelope(
                    kind: .message, messageID: floodMessageID(index, salt: 8), origin: mIdentity.nodeID,
                    destination: NodeID(testIndex: 70_000 + index), route: [mIdentity.nodeID], timestamp: star.wallNow,
                    isInnerSealed: true, payload: [1, 2, 3])
                try? EnvelopeSigner.sign(&envelope, with: mIdentity)
                return envelope
            }
            star.sim.run(for: .seconds(35))
            var replay = original
            replay.hops = 1
            replay.route = [aIdentity.nodeID, mIdentity.nodeID]
            star.inject(replay)
            star.sim.run(for: .seconds(1))
            let atC = star.sim.nodes[FloodStar.c].delivered.filter { $0.messageID == original.messageID }.count
            let b = star.sim.nodes[FloodStar.b].engine
            if checking {
                #expect(atC == 1)
                // Everything older than the few IDs the cache still holds is refused, the replay with it.
                #expect(b.kindCounters[.message].droppedStale >= 1)
            } else {
                #expect(atC == 2, "without the rule the replay is delivered again")
            }
        }
    }
}
