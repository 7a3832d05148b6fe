import Flooding
import MeshCrypto
import MeshProtocol
import Testing
@testable import MeshNode
@testable import MeshSim

/// How M edits the copies it replays of a message it relayed (issue 18's table).
enum RouteEdit: String, CaseIterable, CustomTestStringConvertible {
    /// Hops 0 and route `[origin]`: sent as if straight from the origin.
    case resetToOrigin
    /// Hops 0 and no route at all.
    case emptyRoute
    /// A relay that does not exist placed before M: `[origin, X, M]`.
    case inventedRelay
    /// The victim placed before M, as if it had relayed: `[origin, C, M]`.
    case victimOnRoute
    /// The victim as the last relay, as if M were passing on C's own copy: `[origin, C]`.
    case victimAsSender
    /// The route turned round: `[M, origin]`.
    case reordered

    var testDescription: String { rawValue }

    /// `envelope` as M sends it after this edit; `m` is M, `victim` C, `invented` a node that does not exist.
    func apply(to envelope: Envelope, m: NodeID, victim: NodeID, invented: NodeID) -> Envelope {
        var copy = envelope
        switch self {
        case .resetToOrigin: (copy.hops, copy.route) = (0, [envelope.origin])
        case .emptyRoute: (copy.hops, copy.route) = (0, [])
        case .inventedRelay: (copy.hops, copy.route) = (2, [envelope.origin, invented, m])
        case .victimOnRoute: (copy.hops, copy.route) = (2, [envelope.origin, victim, m])
        case .victimAsSender: (copy.hops, copy.route) = (1, [envelope.origin, victim])
        case .reordered: (copy.hops, copy.route) = (1, [m, envelope.origin])
        }
        return copy
    }
}

/// What one poisoning run measured at C and A.
struct PoisoningOutcome {
    var probesSent = 0
    var probesOnTime = 0
    var directSent = 0
    var directDelivered = 0
    var b: MeshEngine?
}

@Suite("Route poisoning: edited copies from one neighbour cannot make a relay skip anyone")
struct RoutePoisoningTests {
    /// A - B - C with M on B. For `seconds`, A sends a probe broadcast every 500 ms and M replays
    /// every probe it got, edited (all of `edits` in turn, 20 copies over 400 ms, the first as soon
    /// as A's own copy reaches B); every 5 s C writes to A. Probes count when C has them within 1 s.
    static func run(_ scheduler: RelaySchedulerChoice, edits: [RouteEdit], seconds: Int) throws -> PoisoningOutcome {
        var configuration = EngineConfiguration()
        configuration.relayScheduler = scheduler
        let star = try FloodStar(configuration: configuration)
        let sim = star.sim
        let a = FloodStar.a, c = FloodStar.c
        let aIdentity = sim.nodes[a].identity
        let mID = sim.nodes[FloodStar.m].nodeID, cID = sim.nodes[c].nodeID, invented = NodeID(testIndex: 90_000)
        var outcome = PoisoningOutcome()
        var probeIDs: [MessageID] = []
        var directIDs: [MessageID] = []
        let start = sim.now
        for index in 0..<(seconds * 2) {
            let sendAt = start + .milliseconds(500 * Int64(index))
            sim.at(sendAt) { sim in
                let probe = star.broadcast(by: aIdentity, text: "probe \(index)", messageID: floodMessageID(index, salt: 20))
                var original = probe
                (original.hops, original.route) = (0, [aIdentity.nodeID])
                try? EnvelopeSigner.sign(&original, with: aIdentity)
                _ = sim.nodes[a].engine.originate(original, now: sim.now)
                sim.perform(sim.nodes[a].engine.takeActions(), node: a)
                probeIDs.append(original.messageID)
                for copy in 0..<20 {
                    let edit = edits[(index + copy) % edits.count]
                    sim.at(sim.now + .milliseconds(20 * Int64(copy))) { _ in
                        star.inject(edit.apply(to: original, m: mID, victim: cID, invented: invented))
                    }
                }
            }
            if index % 10 == 5 {
                sim.at(sendAt + .milliseconds(250)) { sim in
                    if let id = try? sim.send(from: c, text: "to A \(index)", to: a) { directIDs.append(id) }
                }
            }
        }
        sim.run(for: .seconds(Int64(seconds) + 2))
        outcome.probesSent = probeIDs.count
        let atC = Dictionary(zip(sim.nodes[c].delivered.map(\.messageID), sim.nodes[c].deliveredAt), uniquingKeysWith: min)
        for (index, id) in probeIDs.enumerated() {
            if let at = atC[id], at <= start + .milliseconds(500 * Int64(index) + 1000) { outcome.probesOnTime += 1 }
        }
        outcome.directSent = directIDs.count
        let atA = Set(sim.nodes[a].delivered.map(\.messageID))
        outcome.directDelivered = directIDs.filter { atA.contains($0) }.count
        outcome.b = sim.nodes[FloodStar.b].engine
        return outcome
    }

    @Test("Two minutes of edited replays: ≥ 99 % of A's probes reach C on time and every message C → A arrives",
          arguments: ["managed", "plain"])
    func poisoningIsHarmless(scheduler: String) throws {
        let choice: RelaySchedulerChoice = scheduler == "plain" ? .plain : .managed(ManagedFloodingParameters())
        let outcome = try Self.run(choice, edits: RouteEdit.allCases, seconds: 120)
        #expect(outcome.probesSent == 240)
        #expect(Double(outcome.probesOnTime) >= 0.99 * Double(outcome.probesSent),
                "\(scheduler): \(outcome.probesOnTime) of \(outcome.probesSent) probes on time at C")
        #expect(outcome.directSent >= 20 && outcome.directDelivered == outcome.directSent,
                "\(scheduler): \(outcome.directDelivered) of \(outcome.directSent) direct messages C → A")
        // The edits that contradict the link (M is not the route's last node) are refused as such.
        let b = try #require(outcome.b)
        #expect(b.kindCounters[.message].droppedBadRoute > 0)
    }

    @Test("Each edit alone leaves A's probes and C's messages untouched under managed flooding", arguments: RouteEdit.allCases)
    func eachEditAlone(edit: RouteEdit) throws {
        let outcome = try Self.run(.managed(ManagedFloodingParameters()), edits: [edit], seconds: 30)
        let b = try #require(outcome.b)
        #expect(outcome.probesOnTime == outcome.probesSent, "\(outcome.probesOnTime) of \(outcome.probesSent) on time; B \(b.kindCounters[.message]) \(b.relayCounters)")
        #expect(outcome.directDelivered == outcome.directSent)
    }
}
