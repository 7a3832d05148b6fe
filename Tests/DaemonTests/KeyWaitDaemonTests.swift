import ControlProtocol
import Foundation
import Testing

/// A direct message to a node whose key nobody has waits in the writer's mailbox database and goes
/// out once the key is known (PROTOCOL.md H4, "Waiting for a key"): real daemons over loopback UDP.
@Suite("Messages waiting for a key between real daemons (PROTOCOL.md H4)", .serialized)
struct KeyWaitDaemonTests {
    /// A short lookup, so `relayctl send` says "held" after 2 s rather than 10.
    static let extra = ["--lookup.timeout", "2s", "--lookup.retry_interval", "1s"]

    @Test("C does not exist yet when A writes to it: held, then delivered exactly once after C joins; also across a kill -9 of A",
          arguments: [false, true])
    func recipientStartsAfterTheSend(killSenderInBetween: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = Ports.block(of: 3)
        // C once on its own, for its node ID (its identity stays in its state directory).
        let lone = try DaemonProcess(name: "C", folder: folder.url, port: base + 2, extra: Self.extra)
        try lone.start()
        var identity: IdentityReport?
        _ = eventually(timeout: 15) {
            identity = lone.json(IdentityReport.self, "id")
            return identity != nil
        }
        _ = lone.terminate()
        let c = try #require(identity).nodeID

        var a = try DaemonProcess(name: "A", folder: folder.url, port: base, neighbours: [base + 1], extra: Self.extra)
        let b = try DaemonProcess(name: "B", folder: folder.url, port: base + 1, neighbours: [base], extra: Self.extra)
        var running = [a, b]
        defer { for node in running where node.process.isRunning { _ = node.terminate() } }
        try a.start()
        try b.start()
        #expect(eventually(timeout: 20) { (a.json(StatusReport.self, "status")?.neighbourCount ?? 0) == 1 })

        let sent = a.ctl("send", "--to", c, "written before C existed")
        #expect(sent.status == 0, "\(sent.err)")
        #expect(sent.err.contains("waiting for the key of \(c.prefix(8)), held"), "\(sent.err)")
        #expect(MessageIDText.isValid(sent.out.trimmingCharacters(in: .whitespacesAndNewlines)))
        let mailbox = try #require(a.json(MailboxReport.self, "mailbox"))
        #expect(mailbox.waitingForKey?.map(\.nodeID) == [c] && mailbox.waitingForKey?.first?.count == 1)

        if killSenderInBetween {
            a.killHard()
            a = try DaemonProcess(name: "A", folder: folder.url, port: base, neighbours: [base + 1], extra: Self.extra)
            running.append(a)
            try a.start()
            #expect(eventually(timeout: 20) { (a.json(StatusReport.self, "status")?.neighbourCount ?? 0) == 1 })
            #expect(Self.counter(a, "outbox", "held") == 1, "kept across the kill -9")
        }

        let late = try DaemonProcess(name: "C", folder: folder.url, port: base + 2, neighbours: [base + 1], extra: Self.extra)
        running.append(late)
        try late.start()
        #expect(eventually(timeout: 30) { Self.counter(late, "message", "delivered") == 1 })
        Thread.sleep(forTimeInterval: 3)  // a second copy would show now
        #expect(Self.counter(late, "message", "delivered") == 1)
        #expect(Self.counter(a, "outbox", "sent") == 1)
        #expect(Self.counter(a, "outbox", "held") == 0)
    }

    static func counter(_ node: DaemonProcess, _ group: String, _ name: String) -> UInt64? {
        node.json(StatsReport.self, "stats")?.counters[group]?[name]
    }
}
