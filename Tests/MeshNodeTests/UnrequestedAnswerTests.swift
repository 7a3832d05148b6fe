import Flooding
import MeshCrypto
import MeshProtocol
import Testing
@testable import MeshNode
@testable import MeshSim

/// A neighbour that mints identities and hands on genuine key answers for them, which nobody asked
/// for (docs/PROTOCOL.md H3, "An answer accepted"; SECURITY.md): only a requester waiting for that
/// target keeps what an answer carries, so the minted identities push no known node out anywhere.
@Suite("A neighbour minting identities in key answers (PROTOCOL.md H3)")
struct UnrequestedAnswerTests {
    static let minted = 10_000
    static let seconds = 1_000

    @Test("10,000 minted identities in unrequested answers: every node known before stays known and reachable")
    func mintedAnswersEvictNothing() throws {
        let star = try FloodStar()
        let sim = star.sim
        let (a, b, c) = (FloodStar.a, FloodStar.b, FloodStar.c)
        // Known before: 40 nodes behind M that broadcast (B learns them through M, A and C through B),
        // and C, two links from A.
        let honest = try (0..<40).map { _ in try NodeIdentity.generate() }
        for (index, identity) in honest.enumerated() {
            star.inject(star.broadcast(by: identity, text: "hello \(index)", messageID: floodMessageID(index, salt: 31)))
            sim.run(for: .milliseconds(100))
        }
        try sim.send(from: c, text: "C is here")
        sim.run(for: .seconds(1))
        let cID = sim.nodes[c].nodeID
        for node in [a, b, c] {
            let engine = sim.nodes[node].engine
            #expect(honest.allSatisfy { engine.knowsKey(of: $0.nodeID) }, "node \(node) learned the 40 nodes")
        }
        #expect(sim.nodes[a].engine.knowsKey(of: cID))

        // M mints an identity per answer and hands B that identity's genuine answer to a lookup nobody
        // made (a made-up requester, or A, which looks nothing up), 10 a second: within M's share.
        let mID = sim.nodes[FloodStar.m].nodeID
        let aID = sim.nodes[a].nodeID
        star.flood(count: Self.minted, over: Double(Self.seconds)) { index, star in
            guard let identity = try? NodeIdentity.generate() else { return nil }
            let profile = Profile(
                nodeID: identity.nodeID, displayName: "m\(index)", icon: "", role: .person,
                signingKey: identity.signingPublicKey.x963, agreementKey: identity.agreementPublicKey.x963)
            var signed = Envelope(
                kind: .profile, messageID: floodMessageID(index, salt: 32), origin: identity.nodeID, route: [identity.nodeID],
                timestamp: star.wallNow, payload: profile.encoded())
            guard (try? EnvelopeSigner.sign(&signed, with: identity)) != nil else { return nil }
            let requester = index % 2 == 0 ? aID : NodeID(testIndex: 50_000 + index)
            return Envelope(
                kind: .keyAnswer, messageID: floodMessageID(index, salt: 33), origin: identity.nodeID, destination: requester,
                hops: 1, route: [identity.nodeID, mID], timestamp: star.wallNow,
                payload: KeyAnswerBody(tag: UInt64(index), target: identity.nodeID, profileEnvelope: signed.encoded()).encoded())
        }
        sim.run(for: .seconds(Int64(Self.seconds) + 2))

        let accepted = sim.nodes[b].engine.kindCounters[.keyAnswer].relayed
        #expect(accepted >= UInt64(Self.minted), "B accepted and relayed the answers (\(accepted) copies)")
        for node in [a, b, c] {
            let engine = sim.nodes[node].engine
            #expect(engine.lookupCounters.answersUnrequested >= UInt64(Self.minted) * 9 / 10,
                    "node \(node) counted \(engine.lookupCounters.answersUnrequested) unrequested answers")
            #expect(engine.knownNodeEvictions == 0, "node \(node) evicted \(engine.knownNodeEvictions) known nodes")
            let kept = honest.filter { engine.knowsKey(of: $0.nodeID) }.count
            #expect(kept == honest.count, "node \(node) still knows \(kept) of the 40")
        }
        // Reachable: A writes to C, two links away, with the key it had before the attack.
        let sent = try sim.send(from: a, text: "still there?", to: c)
        sim.run(for: .seconds(1))
        #expect(sim.nodes[c].delivered.contains { $0.messageID == sent })
    }
}
