import ControlProtocol
import Foundation
import Glibc
import Testing

/// Issue 33, items 1 and 2, between real daemons: nodes named by prefix or name; a message
/// waiting for a key listed by ID and cancelled by `mailbox drop` or by Ctrl-C during `send --to`.
@Suite("relayctl names nodes and cancels waiting messages against real daemons", .serialized)
struct CancelDaemonTests {
    /// A node ID nobody has: its key lookup never finds an answer.
    static let nobody = "5c0e7a1d9b3f4e2a8c6d0b1f3e5a7c9d"

    static func pair(_ folder: TemporaryFolder, extra: [String] = []) throws -> (DaemonProcess, DaemonProcess) {
        let base = Ports.block(of: 2)
        let a = try DaemonProcess(name: "A", folder: folder.url, port: base, neighbours: [base + 1], extra: extra)
        let b = try DaemonProcess(name: "Bee", folder: folder.url, port: base + 1, neighbours: [base], extra: extra)
        try a.start()
        try b.start()
        #expect(eventually(timeout: 20) {
            a.json(PeersReport.self, "peers")?.neighbours.first?.name == "Bee"
        }, "A knows B by name")
        return (a, b)
    }

    static func waiting(_ node: DaemonProcess) -> [MailboxReport.WaitingMessage]? {
        node.json(MailboxReport.self, "mailbox")?.waitingMessages
    }

    @Test("send --to a neighbour's name or ID prefix reaches it")
    func sendByNameAndPrefix() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (a, b) = try Self.pair(folder)
        defer { _ = a.terminate(); _ = b.terminate() }
        let bID = try #require(b.json(IdentityReport.self, "id")).nodeID
        #expect(a.ctl("send", "--to", "bee", "by name").status == 0)
        #expect(a.ctl("send", "--to", String(bID.prefix(6)), "by prefix").status == 0)
        #expect(eventually { b.json(StatsReport.self, "stats")?.counters["message"]?["delivered"] == 2 })
        let unknown = a.ctl("send", "--to", "Nobody", "x")
        #expect(unknown.status == 64 && unknown.err.contains("no known node"), "\(unknown.err)")
    }

    @Test("a waiting message is listed by ID and mailbox drop removes it, its text gone from the database",
          arguments: [true, false])
    func dropWaitingMessage(mailbox: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (a, b) = try Self.pair(folder, extra: mailbox ? [] : ["--mailbox.enabled=false"])
        defer { _ = a.terminate(); _ = b.terminate() }
        let secret = "meet me at the old mill at nine"
        let sent = a.ctl("send", "--to", Self.nobody, "--detach", secret)
        #expect(sent.status == 0, "\(sent.err)")
        let id = sent.out.trimmingCharacters(in: .whitespacesAndNewlines)
        let listed = try #require(Self.waiting(a))
        #expect(listed.map(\.messageID) == [id] && listed.first?.nodeID == Self.nobody && listed.first?.stored == mailbox)
        let dropped = a.ctl("mailbox", "drop", String(id.prefix(8)))
        #expect(dropped.status == 0 && dropped.out.hasPrefix("cancelled \(id)"), "\(dropped.err)")
        #expect(Self.waiting(a) == [])
        #expect(a.ctl("cancel", id).status == 65, "nothing left to cancel")
        let counters = a.json(StatsReport.self, "stats")?.counters
        #expect((mailbox ? counters?["outbox"]?["cancelled"] : counters?["lookup"]?["messages_cancelled"]) == 1)
        let database = ["mailbox.db", "mailbox.db-wal"].reduce(into: Data()) { all, name in
            all += FileManager.default.contents(atPath: a.folder.appendingPathComponent(name).path) ?? Data()
        }
        #expect(database.range(of: Data(secret.utf8)) == nil)
    }

    @Test("Ctrl-C while send --to waits for a key cancels the message; relayctl exits 130")
    func interruptCancels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (a, b) = try Self.pair(folder, extra: ["--lookup.timeout", "20s"])
        defer { _ = a.terminate(); _ = b.terminate() }
        let process = Process()
        process.executableURL = Binaries.relayctl
        process.arguments = ["--socket", a.socketPath, "send", "--to", Self.nobody, "never to be sent"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        #expect(eventually { Self.waiting(a)?.count == 1 }, "the message waits")
        let id = try #require(Self.waiting(a)?.first?.messageID)
        Thread.sleep(forTimeInterval: 0.5)  // relayctl is in its polling loop
        kill(process.processIdentifier, SIGINT)
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let outText = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(errText)")
        #expect(outText == id + "\n", "the ID was printed at once")
        #expect(errText.contains("interrupted; message \(id.prefix(8)) cancelled"), "\(errText)")
        #expect(Self.waiting(a) == [])
        #expect(a.json(StatsReport.self, "stats")?.counters["outbox"]?["held"] == 0)
    }
}

/// Issue 33, items 9 and 10, through the relayctl binary: text and help mistakes are usage
/// errors (64) said plainly, before any socket is opened.
@Suite("relayctl refuses bad text and unknown help topics with exit 64")
struct RelayctlInputDaemonTests {
    static func shell(_ script: String) -> (status: Int32, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, Binaries.relayctl.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "\(error)") }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func textThatIsNotUTF8IsRefused() {
        let result = Self.shell(#""$0" --socket /nonexistent.sock send "$(printf 'gr\374\337e')""#)
        #expect(result.status == 64)
        #expect(result.err.hasPrefix("relayctl: argument 4 is not valid UTF-8"), "\(result.err)")
    }

    @Test("text over 16 KiB and empty text are usage errors, not request_too_large or a refusal")
    func oversizedAndEmptyText() {
        let big = Relayctl.run(["--socket", "/nonexistent.sock", "send", String(repeating: "x", count: 20_000)])
        #expect(big.status == 64)
        #expect(big.err.hasPrefix("relayctl: the text is 20000 bytes; a message holds at most 4096 bytes"), "\(big.err)")
        let empty = Relayctl.run(["--socket", "/nonexistent.sock", "send", ""])
        #expect(empty.status == 64 && empty.err.hasPrefix("relayctl: send needs the message text"), "\(empty.err)")
    }

    @Test func helpForAnUnknownCommandExits64() {
        let result = Relayctl.run(["help", "frob"])
        #expect(result.status == 64 && result.err.hasPrefix("relayctl: unknown command 'frob'"), "\(result.err)")
        #expect(Relayctl.run(["help", "send"]).status == 0)
    }
}
