import Foundation
import Mailbox
import MeshProtocol
import Testing
@testable import MeshNode
@testable import MeshSim

/// PROTOCOL.md G1: a neighbour that walks away is unreachable once its departure grace ends,
/// however recently it wrote over its own link. A line A–B–P on the simulator; B keeps mail; P
/// writes a broadcast (A learns its keys), then its link to B drops; A writes to P some seconds
/// later; P comes back to B. Before this rule B counted P as "heard" for the reach window (2 min)
/// after its last message and kept nothing written in that time: the message was lost.
@Suite("Mailbox: a departed neighbour's mail")
struct MailboxDepartedNeighbourTests {
    private static let base: UInt64 = 1_767_225_600_000
    private let a = 0, b = 1, p = 2

    private func simulator(directory: URL) throws -> MeshSimulator {
        var configuration = EngineConfiguration()
        configuration.keepsMail = true
        let sim = try MeshSimulator(
            nodeCount: 3, seed: 2222, configuration: configuration, wallClocks: Array(repeating: Self.base, count: 3))
        try sim.keepMail(at: b, path: directory.appendingPathComponent("mailbox.db").path)
        return sim
    }

    @Test("A message written after the neighbour left is held and handed over once", arguments: [5, 40, 90, 150])
    func heldAfterLeaving(secondsAway: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("departed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sim = try simulator(directory: directory)
        sim.connect(a, b)
        let toP = sim.connect(p, b)
        sim.run(for: .seconds(10))
        _ = try sim.send(from: p, text: "hello")
        sim.run(for: .seconds(2))
        #expect(sim.nodes[a].delivered.count == 1, "A learned P's keys from its broadcast")

        sim.disconnect(toP)
        sim.run(for: .seconds(secondsAway))
        let pID = sim.nodes[p].nodeID
        #expect(sim.nodes[b].engine.reach(of: pID, now: sim.now) == (secondsAway < 30 ? .inGrace : .unreachable))
        let id = try sim.send(from: a, text: "while you were out", to: p)
        sim.run(for: .seconds(35))  // past the grace in every case: what was held for P is deposited
        #expect(sim.nodes[b].mailbox?.store.index.count(for: pID) == 1, "B holds the message for P")

        sim.reconnect(toP)
        sim.run(for: .seconds(10))
        #expect(sim.nodes[p].delivered.filter { $0.messageID == id }.count == 1)
        #expect(sim.nodes[b].mailbox?.store.index.count(for: pID) == 0, "handed over, then removed")
        #expect(sim.nodes[b].mailbox?.store.index.counters.delivered == 1)
    }

    @Test("A node heard through another neighbour still counts as heard: its mail is not kept")
    func heardElsewhere() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("departed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sim = try simulator(directory: directory)
        sim.connect(a, b)
        let toP = sim.connect(p, b)
        sim.run(for: .seconds(10))
        sim.disconnect(toP)
        sim.run(for: .seconds(40))
        // P walks to the other end of the line and writes: B hears it through A.
        sim.connect(p, a)
        sim.run(for: .seconds(10))
        _ = try sim.send(from: p, text: "over here now")
        sim.run(for: .seconds(2))
        let pID = sim.nodes[p].nodeID
        #expect(sim.nodes[b].engine.reach(of: pID, now: sim.now) == .heard(hops: 2))
        let id = try sim.send(from: b, text: "found you")
        sim.run(for: .seconds(5))
        #expect(sim.nodes[p].delivered.filter { $0.messageID == id }.count == 1)
        #expect(sim.nodes[b].mailbox?.store.index.count(for: pID) == 0, "nothing kept for a node in reach")
    }
}
