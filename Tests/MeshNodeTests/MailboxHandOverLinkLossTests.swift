import Foundation
import Mailbox
import MeshProtocol
import Testing
@testable import MeshNode
@testable import MeshSim

/// PROTOCOL.md G2: the recipient's link drops right after the mailbox handed its mail over, with
/// the frames still on their way (on BlueZ: queued on the D-Bus thread, dropped with the device).
/// The mail must not be lost: it stays until the link has stayed up, and goes again on the next
/// link. Before, the mailbox removed each message as soon as the transport took its frames.
@Suite("Mailbox: a hand-over lost with its link is sent again")
struct MailboxHandOverLinkLossTests {
    private static let base: UInt64 = 1_767_225_600_000
    private let s = 0, b = 1, p = 2

    @Test("Every held message arrives once after the link that carried it dropped", arguments: [3, 12])
    func sentAgain(count: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("handover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = EngineConfiguration()
        configuration.keepsMail = true
        let sim = try MeshSimulator(
            nodeCount: 3, seed: 3333, configuration: configuration, wallClocks: Array(repeating: Self.base, count: 3))
        try sim.keepMail(at: b, path: directory.appendingPathComponent("b.db").path)
        sim.connect(s, b)
        let toP = sim.connect(p, b)
        sim.run(for: .seconds(10))
        _ = try sim.send(from: p, text: "hello")
        sim.run(for: .seconds(2))
        sim.disconnect(toP)
        sim.run(for: .seconds(40))
        var sent: [MessageID] = []
        for n in 0..<count {
            sent.append(try sim.send(from: s, text: "mail \(n)", to: p))
            sim.run(for: .milliseconds(100))
        }
        sim.run(for: .seconds(5))
        let pID = sim.nodes[p].nodeID
        #expect(sim.nodes[b].mailbox?.store.index.count(for: pID) == count)

        // P comes back on a slow link (1 s per frame); the link drops 0.5 s after the first hand-over.
        sim.reconnect(toP, spec: SimLinkSpec(latency: .seconds(1)))
        var waited = 0
        while sim.nodes[b].engine.reach(of: pID, now: sim.now) != .linked, waited < 400 {
            sim.run(for: .milliseconds(50))
            waited += 1
        }
        #expect(sim.nodes[b].engine.reach(of: pID, now: sim.now) == .linked)
        sim.run(for: .milliseconds(750))
        sim.disconnect(toP)
        #expect(sim.nodes[p].delivered.filter { sent.contains($0.messageID) }.isEmpty, "nothing arrived before the drop")

        sim.run(for: .seconds(60))
        sim.reconnect(toP)
        sim.run(for: .seconds(20))
        for id in sent { #expect(sim.nodes[p].delivered.filter { $0.messageID == id }.count == 1) }
        #expect(sim.nodes[p].delivered.map(\.messageID).filter { sent.contains($0) } == sent, "oldest first")
        #expect(sim.nodes[b].mailbox?.store.index.count(for: pID) == 0)
        #expect(sim.nodes[b].mailbox?.store.index.counters.delivered == UInt64(count))
    }
}
