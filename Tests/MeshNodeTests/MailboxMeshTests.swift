import Foundation
import Mailbox
import MeshProtocol
import Testing
@testable import MeshNode
@testable import MeshSim

/// Issue 22 on the simulator: a recipient leaves a 30-node mesh for two virtual hours while five
/// senders write to it; one node keeps mail (SQLite, as meshnoded does); the recipient comes back
/// at a random node within the mailbox's copy reach (the mailbox itself or one of its neighbours).
@Suite("Mailbox in a 30-node mesh: held for two hours, delivered exactly once")
struct MailboxMeshTests {
    private static let base: UInt64 = 1_767_225_600_000

    private struct Outcome {
        var sent: [MessageID] = []
        var senderOf: [MessageID: Int] = [:]
        var deliveredCounts: [MessageID: Int] = [:]
        var returnedAt = 0
        var mailbox = 0
        var heldBeforeReturn = 0
        var heldAfter = 0
    }

    private func run(seed: UInt64, restartMailbox: Bool, returnAtMailbox: Bool) throws -> Outcome {
        let graph = MeshGraph.randomGeometric(nodes: 30, meanDegree: 5, maxLinks: 7, seed: seed)
        let mailbox = graph.neighbours.indices.max { graph.neighbours[$0].count < graph.neighbours[$1].count }!
        let fromMailbox = graph.distances(from: mailbox)
        // The recipient: a node two hops from the mailbox; the senders: nodes within two hops of
        // the mailbox (so their messages reach it) and three of the recipient (so they know its keys).
        let recipient = try #require(fromMailbox.indices.first { fromMailbox[$0] == 2 })
        let fromRecipient = graph.distances(from: recipient)
        let candidates = fromMailbox.indices.filter {
            $0 != mailbox && $0 != recipient && (fromMailbox[$0] ?? 99) <= 2 && (fromRecipient[$0] ?? 99) <= 3
        }
        let senders = Array(candidates.prefix(5))
        try #require(senders.count == 5, "the graph has five senders near both")

        var configuration = EngineConfiguration()
        configuration.keepsMail = true
        // The senders keep the recipient's keys for the whole absence, as a phone keeps its contacts'.
        configuration.knownNodeLifetime = .seconds(3 * 3_600)
        let sim = try MeshSimulator(
            nodeCount: 30, seed: seed, configuration: configuration, tickInterval: .seconds(1),
            wallClocks: Array(repeating: Self.base, count: 30))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mailbox-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try sim.keepMail(at: mailbox, path: directory.appendingPathComponent("mailbox.db").path)

        var connections: [SimConnection] = []
        for edge in graph.edges { connections.append(sim.connect(edge.a, edge.b)) }
        sim.run(for: .seconds(20))
        _ = try sim.send(from: recipient, text: "hello, I am here")  // everyone within three hops learns its keys
        sim.run(for: .seconds(10))
        for connection in connections where connection.central == recipient || connection.peripheral == recipient {
            sim.disconnect(connection)
        }
        // Past the departure grace (30 s) and the reach window (2 min): the recipient is unreachable.
        sim.run(for: .seconds(200))

        var outcome = Outcome()
        outcome.mailbox = mailbox
        var random = SplitMix64(seed: seed ^ 0x6d61_696c)
        let twoHours: Int64 = 7_200
        let start = Int64(sim.now.components.seconds)
        var times: [(Int64, Int)] = []
        for sender in senders { for _ in 0..<4 { times.append((start + Int64(random.next() % UInt64(twoHours - 60)), sender)) } }
        times.sort { $0.0 < $1.0 }
        for (second, sender) in times {
            sim.run(for: .seconds(second) - sim.now)
            let id = try sim.send(from: sender, text: "for you at \(second)", to: recipient)
            outcome.sent.append(id)
            outcome.senderOf[id] = sender
            if restartMailbox, outcome.sent.count == 10 {
                sim.run(for: .seconds(2))  // the next tick commits the batch
                sim.restart(mailbox)
            }
        }
        sim.run(for: .seconds(start + twoHours) - sim.now)
        outcome.heldBeforeReturn = sim.nodes[mailbox].mailbox?.store.index.count(for: sim.nodes[recipient].nodeID) ?? 0

        let returnPoints = [mailbox] + graph.neighbours[mailbox].filter { $0 != recipient }
        outcome.returnedAt = returnAtMailbox ? mailbox : returnPoints[Int(random.next() % UInt64(returnPoints.count))]
        sim.connect(recipient, outcome.returnedAt)
        sim.run(for: .seconds(15 * 60))
        for message in sim.nodes[recipient].delivered { outcome.deliveredCounts[message.messageID, default: 0] += 1 }
        outcome.heldAfter = sim.nodes[mailbox].mailbox?.store.index.count(for: sim.nodes[recipient].nodeID) ?? 0
        return outcome
    }

    /// Seed 22 brings the recipient back next to the origin of four of the messages (Part G, "Back
    /// at its origin"); the second case brings it back at the mailbox itself (hand-over on its link).
    @Test("Every message written while the recipient was away is delivered exactly once", arguments: [
        (seed: UInt64(22), restart: false, atMailbox: false), (seed: 24, restart: true, atMailbox: true),
    ])
    func deliveredOnce(seed: UInt64, restart: Bool, atMailbox: Bool) throws {
        let outcome = try run(seed: seed, restartMailbox: restart, returnAtMailbox: atMailbox)
        #expect(outcome.sent.count == 20)
        #expect(outcome.heldBeforeReturn == 20, "the mailbox held all 20 (restarted: \(restart))")
        for id in outcome.sent {
            #expect(outcome.deliveredCounts[id] == 1, "message \(id) from node \(outcome.senderOf[id] ?? -1) delivered \(outcome.deliveredCounts[id] ?? 0) times (returned at node \(outcome.returnedAt), mailbox \(outcome.mailbox))")
        }
        if outcome.returnedAt == outcome.mailbox {
            #expect(outcome.heldAfter == 0, "handed over on its own link, then removed")
        }
    }
}
