import Glibc
import ControlProtocol
import Foundation
import MeshTestSupport
import Testing
@testable import MeshService
@testable import RelayctlKit

@Suite("relayctl output")
struct RelayctlOutputTests {
    let formatter = ReportFormatter(clock: { _ in "12:00:00" })

    @Test func tablesAlign() {
        var table = TextTable(headers: ["NAME", "COUNT"], alignments: [.left, .right])
        table.append(["a", "1"])
        table.append(["longer name", "12345"])
        table.append(["tab\there", "7", "ignored"])
        #expect(table.rendered() == """
        NAME         COUNT
        a                1
        longer name  12345
        tab here         7

        """)
        #expect(TextTable.displayWidth("📡 x") == 4)
    }

    @Test func peersTable() {
        #expect(formatter.peers(FakeNode().peers()) == """
        Neighbours (1):
        NODE      NAME        ROLE    STATE   LINKS                          MTU  RSSI   HEARD
        a0a1a2a3  🍳 Kitchen  person  linked  udp #3 central 127.0.0.1:7002  185   -60  2s ago

        Remote nodes (1):
        NODE      NAME  HOPS       HEARD
        00112233  ?        2  1m 10s ago

        """)
    }

    @Test("status shows the BlueZ transport's own state beside its name, and its JSON carries it only when set")
    func statusWithTransportState() throws {
        var report = FakeNode().status()
        #expect(!String(decoding: try JSONEncoder().encode(report), as: UTF8.self).contains("transportState"))
        report.transportState = "waiting for bluetoothd (retry in 4 s)"
        #expect(formatter.status(report).contains(": waiting for bluetoothd (retry in 4 s)\n"))
        let decoded = try JSONDecoder().decode(StatusReport.self, from: JSONEncoder().encode(report))
        #expect(decoded.transportState == report.transportState)
    }

    @Test func statsStatusIdentityAndEvents() {
        let stats = formatter.stats(FakeNode().stats())
        #expect(stats.hasPrefix("uptime 1h 2m, memory 12.0 MiB resident (peak 16.0 MiB)\n\nGROUP    COUNTER    VALUE   RATE\n"))
        #expect(stats.contains("message  relayed        7  6.8/h\n"))
        #expect(formatter.status(FakeNode().status()).contains("known nodes  2\n"))
        #expect(formatter.identity(FakeNode().identity()).hasPrefix("node ID        00112233445566778899aabbccddeeff\n"))
        let event = WatchEvent.message(id: FakeNode.messageID, from: FakeNode.neighbourID, to: nil, hops: 1, text: "hi\u{1b}[2J")
        #expect(formatter.event(event) == "12:00:00 message a0a1a2a3 → everyone (1 hop): hi [2J\n")
        #expect(ReportFormatter.duration(90_061) == "1d 1h" && ReportFormatter.bytes(1023) == "1023 B")
    }
}

@Suite("relayctl against a control server")
struct RelayctlRunnerTests {
    final class Output: Sendable {
        let out = Recorder<String>()
        let err = Recorder<String>()
        /// The pause between lookup polls: true means the operator pressed Ctrl-C.
        let pause: @Sendable (Duration) -> Bool

        /// Output whose pause sleeps like the tool's, never interrupted (no signal is blocked).
        init(pause: @escaping @Sendable (Duration) -> Bool = Output.sleep) { self.pause = pause }

        static let sleep: @Sendable (Duration) -> Bool = { duration in
            var pause = timespec(tv_sec: Int(duration.components.seconds), tv_nsec: Int(duration.components.attoseconds / 1_000_000_000))
            _ = nanosleep(&pause, nil)
            return false
        }

        var runner: RelayctlRunner {
            RelayctlRunner(out: { self.out.append($0) }, err: { self.err.append($0) },
                           formatter: ReportFormatter(clock: { _ in "t" }), timeout: .seconds(10), pause: pause)
        }
        var stdout: String { out.all.joined() }
        var stderr: String { err.all.joined() }
    }

    @Test func sendPrintsTheMessageID() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output()
        let code = output.runner.run(RelayctlInvocation(command: .send(text: "hello", to: nil), socketPath: fixture.path))
        #expect(code == .ok && output.stdout == FakeNode.messageID.hex + "\n" && output.stderr.isEmpty)
        #expect(fixture.node.sent == [.init(text: "hello", to: nil)])
    }

    @Test func jsonPrintsTheResult() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output()
        #expect(output.runner.run(RelayctlInvocation(command: .status, socketPath: fixture.path, json: true)) == .ok)
        let decoded = try JSONDecoder().decode(StatusReport.self, from: Data(output.stdout.utf8))
        #expect(decoded == FakeNode().status())
    }

    @Test func refusedRequestExits65() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = Output()
        let code = output.runner.run(RelayctlInvocation(command: .send(text: "x", to: FakeNode.nodeID.hex), socketPath: fixture.path))
        #expect(code == .refused && code.rawValue == 65)
        #expect(output.stderr == "relayctl: meshnoded refused: unknown node \(FakeNode.nodeID.hex) (unknown_node)\n")
    }

    @Test func missingSocketExits69() throws {
        let directory = try TemporaryDirectory()
        let output = Output()
        let code = output.runner.run(RelayctlInvocation(command: .id, socketPath: directory.path + "/none.sock"))
        #expect(code == .unavailable && code.rawValue == 69)
        #expect(output.stderr.hasPrefix("relayctl: cannot connect to \(directory.path)/none.sock: No such file or directory"))
    }

    @Test func watchPrintsEventsUntilTheServerCloses() throws {
        let fixture = try ServerFixture()
        let output = Output()
        let done = Recorder<RelayctlExitCode>()
        let runner = output.runner
        let path = fixture.path
        Thread.detachNewThread { done.append(runner.run(RelayctlInvocation(command: .watch, socketPath: path))) }
        #expect(Recorder<Int>().wait { _ in fixture.node.watcherCount == 1 })
        fixture.node.emit(.neighbourJoined(node: FakeNode.neighbourID, name: "Kitchen", time: 5))
        #expect(output.out.wait {
            $0.joined() == "watching 00112233 Hallway (1 neighbour, 2 known further away); Ctrl-C to stop\n"
                + "t peer a0a1a2a3 Kitchen joined\n"
        })
        fixture.server.stop()
        #expect(done.wait { $0 == [.ok] })
    }
}

/// Issue 11: relayctl said "Broken pipe" (exit 74) when the daemon turned it away.
@Suite("relayctl turned away by a full server")
struct RelayctlTooManyClientsTests {
    /// A server with one client slot, taken by a client that has been answered.
    static func fullServer() throws -> (ServerFixture, RawControlClient) {
        let fixture = try ServerFixture { $0.maxClients = 1 }
        let first = try RawControlClient(path: fixture.path)
        first.write(#"{"id":1,"command":"id"}"# + "\n")
        #expect(first.readObject()?["ok"] as? Bool == true)
        return (fixture, first)
    }

    @Test("The refusal is read even when the server closed before the request was written")
    func refusalReadAfterTheServerClosed() throws {
        let (fixture, first) = try Self.fullServer()
        defer { fixture.server.stop() }
        let client = try ControlClient(socketPath: fixture.path)
        #expect(Recorder<Int>().wait { _ in fixture.server.counters().connectionsRejected == 1 })
        let line = try client.requestLine(ControlRequest(id: nil, command: "status"))
        let reply = try ControlClient.decodeReply(line, as: StatusReport.self)
        #expect(reply.ok == false && reply.error?.code == "too_many_clients")
        first.disconnect()
    }

    @Test("relayctl prints too_many_clients and exits 65")
    func relayctlPrintsTheRefusal() throws {
        let (fixture, first) = try Self.fullServer()
        defer { fixture.server.stop() }
        let output = RelayctlRunnerTests.Output()
        let code = output.runner.run(RelayctlInvocation(command: .status, socketPath: fixture.path))
        #expect(code == .refused && code.rawValue == 65)
        #expect(output.stderr == "relayctl: meshnoded refused: too many control clients (too_many_clients)\n")
        first.disconnect()
    }
}
