import ControlProtocol
import Foundation
import Glibc
import MeshService
import Testing

/// Issue 19 item 2: the seen cache survives `kill -9` through `seen.journal`, so a peer that
/// sends the same envelopes again after the crash gets nothing delivered twice.
@Suite("The seen journal across kill -9", .serialized)
struct SeenJournalCrashTests {
    /// How many envelopes a `--record` file holds (4-byte big-endian length, then the envelope).
    static func recorded(_ path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        let bytes = [UInt8](data)
        var offset = 0
        var count = 0
        while offset + 4 <= bytes.count {
            offset += 4 + bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            count += 1
        }
        return offset == bytes.count ? count : 0
    }

    /// Runs meshflood against `port` with `arguments`; true when it exited 0.
    static func flood(_ port: UInt16, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = Binaries.meshflood
        process.arguments = ["--target", "127.0.0.1:\(port)", "--link-timeout", "10"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static func counter(_ node: DaemonProcess, _ group: String, _ name: String) -> UInt64? {
        node.json(StatsReport.self, "stats")?.counters[group]?[name]
    }

    static func start(_ folder: URL, _ port: UInt16) throws -> DaemonProcess {
        let node = try DaemonProcess(name: "node", folder: folder, port: port)
        try node.start()
        _ = eventually { node.json(StatusReport.self, "status")?.state == "running" }
        return node
    }

    @Test("Delivered, kill -9, restarted, replayed: zero repeated deliveries; the same without the journal: all repeated")
    // About 30 broadcasts from a meshflood neighbour, recorded; a watcher sees each once; kill -9;
    // the same envelopes sent again by a new neighbour: every one dropped as seen.
    func noRepeatAcrossKill() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Binaries.meshflood.path),
                     "no meshflood at \(Binaries.meshflood.path): swift build --package-path Benchmarks --product meshflood")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = Ports.block(of: 1)
        let recording = folder.url.appendingPathComponent("sent.envelopes").path
        var node = try Self.start(folder.url, port)
        defer { if node.process.isRunning { node.killHard() } }

        // A watcher, so each delivery waits for its ID to be synced before it is reported.
        let watch = WatchStream(node: node)
        #expect(watch.waitForSubscription())
        #expect(Self.flood(port, ["--mode", "broadcast", "--rate", "30", "--duration", "1", "--record", recording]))
        let count = Self.recorded(recording)
        #expect(count >= 10)
        #expect(eventually { Self.counter(node, "message", "delivered") == UInt64(count) })
        var reported = 0
        while reported < count, watch.next(timeout: 5, where: { $0.type == WatchEventType.message.rawValue }) != nil { reported += 1 }
        #expect(reported == count)
        #expect((Self.counter(node, "seen_journal", "syncs") ?? 0) >= 1)
        #expect((Self.counter(node, "seen_journal", "deliveries_held") ?? 0) >= 1)
        watch.stop()
        node.killHard()

        node = try Self.start(folder.url, port)
        #expect((Self.counter(node, "seen_journal", "replayed_ids") ?? 0) >= UInt64(count))
        #expect(Self.flood(port, ["--mode", "resend", "--from", recording, "--rate", "100", "--duration", "2"]))
        #expect(eventually { Self.counter(node, "message", "dropped_seen") == UInt64(count) })
        #expect(Self.counter(node, "message", "delivered") == 0)
        node.killHard()

        // The control: without the journal the same replay is delivered again, every message.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("node/seen.journal"))
        node = try Self.start(folder.url, port)
        #expect(Self.flood(port, ["--mode", "resend", "--from", recording, "--rate", "100", "--duration", "2"]))
        #expect(eventually { Self.counter(node, "message", "delivered") == UInt64(count) })
        #expect(node.terminate().status == 0)
    }
}
