import Foundation
import Mailbox
import MeshProtocol
import Testing
@testable import MeshNode
@testable import MeshSim

/// PROTOCOL.md G4: a delivery memory whose `vouched_since` was written by a clock that was ahead
/// is lowered to mesh time once, and that lowered value is what the next start reads back. A line
/// S–B–P on the simulator, B keeping mail; P's database was created by a first start two years
/// fast. P is away twice, restarted during the second absence; the message held then was stamped
/// after the first lowering and must be delivered. Before the value was written back, the restart
/// read the two-years-ahead value again, lowered it to the time P came back, and refused the message.
@Suite("Mailbox: the lowered vouched_since survives a restart")
struct MailboxVouchedSinceRestartTests {
    private static let base: UInt64 = 1_767_225_600_000
    private let s = 0, b = 1, p = 2

    @Test("A message held across the recipient's restart is delivered once")
    func deliveredAfterRestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vouched-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pPath = directory.appendingPathComponent("p.db").path
        let ahead = Self.base + 2 * 365 * 86_400_000
        #expect(try MailboxStore.open(path: pPath, limits: MailboxLimits(), now: ahead).store.memorySince == ahead)

        var configuration = EngineConfiguration()
        configuration.keepsMail = true
        configuration.knownNodeLifetime = .seconds(3 * 3_600)  // S keeps P's keys, as a phone keeps its contacts'
        let sim = try MeshSimulator(
            nodeCount: 3, seed: 4444, configuration: configuration, wallClocks: Array(repeating: Self.base, count: 3))
        try sim.keepMail(at: b, path: directory.appendingPathComponent("b.db").path)
        try sim.keepMail(at: p, path: pPath)
        #expect(sim.nodes[p].engine.deliveryMemory.vouchedSince == ahead)
        sim.connect(s, b)
        let toP = sim.connect(p, b)
        sim.run(for: .seconds(10))
        _ = try sim.send(from: p, text: "hello")
        sim.run(for: .seconds(2))
        sim.disconnect(toP)

        // First absence: the message is older than P's seen cache vouches for when it comes back,
        // so G4 decides; the memory is lowered to mesh time then (and this message, stamped
        // before, is refused: the memory cannot vouch for it).
        sim.run(for: .seconds(60) - sim.now)
        let first = try sim.send(from: s, text: "first", to: p)
        sim.run(for: .seconds(20 * 60) - sim.now)
        sim.reconnect(toP)
        sim.run(for: .seconds(30))
        let lowered = sim.nodes[p].engine.deliveryMemory.vouchedSince
        #expect(lowered <= Self.base + 21 * 60_000, "lowered to mesh time")
        #expect(sim.nodes[p].mailbox?.store.memorySince == lowered, "and committed")
        #expect(!sim.nodes[p].delivered.contains { $0.messageID == first })

        // Second absence, with a restart: the message is stamped after the lowering.
        sim.disconnect(toP)
        sim.run(for: .seconds(23 * 60) - sim.now)
        let second = try sim.send(from: s, text: "second", to: p)
        sim.run(for: .seconds(25 * 60) - sim.now)
        sim.restart(p)
        #expect(sim.nodes[p].engine.deliveryMemory.vouchedSince == lowered, "read back, not two years ahead")
        sim.run(for: .seconds(45 * 60) - sim.now)
        sim.reconnect(toP)
        sim.run(for: .seconds(30))
        #expect(sim.nodes[p].delivered.filter { $0.messageID == second }.count == 1)
        #expect(sim.nodes[b].mailbox?.store.index.count(for: sim.nodes[p].nodeID) == 0)
    }
}
