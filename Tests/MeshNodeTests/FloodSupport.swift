import MeshCrypto
import MeshLink
import MeshProtocol
@testable import MeshNode
@testable import MeshSim

/// A star around a relay B for flood tests: A (quiet, sends probes), C (listens) and M (floods),
/// each linked to B only. Indices: A 0, B 1, C 2, M 3.
struct FloodStar {
    static let a = 0, b = 1, c = 2, m = 3
    let sim: MeshSimulator

    init(configuration: EngineConfiguration = EngineConfiguration(), seed: UInt64 = 7) throws {
        // M floods as a hostile node would: it ignores B's credit (PROTOCOL.md D12), which only
        // paces a peer that keeps the rules.
        var flooder = configuration
        flooder.linkDelivery.acknowledges = false
        sim = try MeshSimulator(nodeCount: 4, seed: seed, configuration: configuration, nodeConfigurations: [Self.m: flooder])
        sim.connect(Self.a, Self.b)
        sim.connect(Self.b, Self.c)
        sim.connect(Self.m, Self.b)
        sim.run(for: .seconds(3))
    }

    /// The engine-time wall clock in milliseconds (the simulator's engines start at 0).
    var wallNow: UInt64 { UInt64(sim.now.components.seconds) * 1000 + UInt64(sim.now.components.attoseconds / 1_000_000_000_000_000) }

    /// M hands B `envelope` as if relaying it, at the current virtual time.
    func inject(_ envelope: Envelope) {
        let engine = sim.nodes[Self.m].engine
        _ = engine.sendEnvelope(envelope, to: sim.nodes[Self.b].nodeID, now: sim.now)
        sim.perform(engine.takeActions(), node: Self.m)
    }

    /// Schedules `count` injections spread evenly over `seconds`, starting now; `make` builds each.
    func flood(count: Int, over seconds: Double, _ make: @escaping (Int, FloodStar) -> Envelope?) {
        let start = sim.now
        let star = self
        for index in 0..<count {
            let at = start + .milliseconds(Int64(Double(index) * seconds * 1000 / Double(count)))
            sim.at(at) { _ in if let envelope = make(index, star) { star.inject(envelope) } }
        }
    }

    /// Schedules a probe broadcast from A every `interval`, `count` times; each is checked at C
    /// `deadline` after it was sent.
    func scheduleProbes(every interval: Duration, count: Int, deadline: Duration, record: Probes) {
        let c = Self.c
        for index in 0..<count {
            sim.at(sim.now + interval * index) { sim in
                guard let id = try? sim.send(from: Self.a, text: "probe \(index)") else { return }
                record.sent += 1
                sim.at(sim.now + deadline) { sim in
                    if sim.nodes[c].delivered.contains(where: { $0.messageID == id }) { record.onTime += 1 }
                }
            }
        }
    }

    /// A broadcast signed by `identity`, as M would relay it (hops 1, route origin then M), or as
    /// M sends its own (hops 0, route M).
    func broadcast(by identity: NodeIdentity, text: String, messageID: MessageID) -> Envelope {
        let body = ChatBody(
            signingKey: identity.signingPublicKey.compressed, agreementKey: identity.agreementPublicKey.compressed,
            text: text)
        var envelope = Envelope(
            kind: .message, messageID: messageID, origin: identity.nodeID, hops: 1,
            route: [identity.nodeID, sim.nodes[Self.m].nodeID], timestamp: wallNow, payload: body.encoded())
        if identity.nodeID == sim.nodes[Self.m].nodeID { (envelope.hops, envelope.route) = (0, [identity.nodeID]) }
        try? EnvelopeSigner.sign(&envelope, with: identity)
        return envelope
    }

    /// Envelopes of `kind` that reached C (delivered or not), less A's probes.
    func reachingC(_ kind: MessageKind, probes: Probes) -> Int {
        let received = Int(sim.nodes[Self.c].engine.kindCounters[kind].received)
        return kind == .message ? received - probes.sent : received
    }
}

/// What became of A's probes, filled in by simulator scripts.
final class Probes {
    /// Probes A sent.
    var sent = 0
    /// Probes C had delivered by their deadline.
    var onTime = 0
}

/// Message IDs for flood tests, from a counter (their secrecy does not matter here).
func floodMessageID(_ index: Int, salt: UInt8) -> MessageID {
    try! MessageID(bytes: [salt] + [UInt8](repeating: 0x5A, count: 11) + withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) })
}
