import ControlProtocol
import Foundation
import Glibc
import MeshService
import Testing

@Suite("relayctl --json, field by field", .serialized)
struct RelayctlJSONTests {
    @Test("Every command's JSON output parses and carries the right values")
    func everyCommand() throws {
        let line = try LineOfNodes(count: 2)
        defer { line.stop() }
        #expect(line.waitUntilLinked())
        let (a, b) = (line.nodes[0], line.nodes[1])

        let id = try #require(a.json(IdentityReport.self, "id"))
        #expect(MessageIDText.isValid(id.nodeID))
        #expect(id.shortID == String(id.nodeID.prefix(8)))
        #expect(id.signingKey.count == 130 && id.signingKey.hasPrefix("04"))
        #expect(id.agreementKey.count == 130 && id.agreementKey.hasPrefix("04"))
        #expect(id.fingerprint.split(separator: " ").count == 6)

        let status = try #require(a.json(StatusReport.self, "status"))
        #expect(status.nodeID == id.nodeID)
        #expect(status.name == "A")
        #expect(status.transport == "udp")
        #expect(status.state == "running")
        #expect(status.neighbourCount == 1)
        #expect(status.uptimeSeconds > 0)
        #expect(status.version == DaemonVersion.current)

        let peers = try #require(b.json(PeersReport.self, "peers"))
        let neighbour = try #require(peers.neighbours.first)
        #expect(peers.neighbours.count == 1)
        #expect(neighbour.nodeID == id.nodeID)
        #expect(neighbour.name == "A")
        #expect(neighbour.role == "relay")
        #expect(neighbour.links.count == 1)
        #expect(neighbour.links.first?.role == "central")
        #expect(neighbour.links.first?.mtu == 185)
        #expect(neighbour.links.first?.address == "127.0.0.1:\(a.port)")
        #expect(neighbour.lastHeardSecondsAgo >= 0)

        let watcher = WatchStream(node: b)
        defer { watcher.stop() }
        #expect(watcher.waitForSubscription())
        let sendResult = a.ctl("--json", "send", "json check")
        let sent = try JSONDecoder().decode(SendReport.self, from: Data(sendResult.out.utf8))
        #expect(MessageIDText.isValid(sent.messageID))
        let event = try #require(watcher.next { $0.type == WatchEventType.message.rawValue })
        guard case .message(let messageID, let from, let to, let hops, let text, _) = event else {
            Issue.record("not a message event: \(event)")
            return
        }
        #expect(messageID.hex == sent.messageID)
        #expect(from.hex == id.nodeID)
        #expect(to == nil)
        #expect(hops == 0)
        #expect(text == "json check")

        let stats = try #require(b.json(StatsReport.self, "stats"))
        #expect(stats.counters["message"]?["delivered"] == 1)
        #expect(stats.counters["message"]?["received"] == 1)
        #expect((stats.counters["links"]?["key_exchanges"] ?? 0) >= 1)
        #expect((stats.counters["fragments"]?["completed"] ?? 0) >= 3)
        #expect(stats.counters["control"] != nil)
        #expect(stats.counters["transport"] != nil)
        #expect(stats.memory.residentBytes > 0)
        #expect(stats.memory.peakResidentBytes >= stats.memory.residentBytes)
    }

    @Test("Errors go to stderr with distinct exit codes")
    func errors() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = Relayctl.run(["--socket", folder.url.appendingPathComponent("none.sock").path, "status"])
        #expect(missing.status == 69)
        #expect(missing.out.isEmpty && !missing.err.isEmpty)
        let usage = Relayctl.run(["frobnicate"])
        #expect(usage.status == 64)
        #expect(!usage.err.isEmpty)
    }
}

/// `relayctl --json watch` running in the background, its lines decoded as they come.
final class WatchStream {
    let process = Process()
    let pipe = Pipe()
    private var buffer = Data()

    init(node: DaemonProcess) {
        process.executableURL = Binaries.relayctl
        process.arguments = ["--socket", node.socketPath, "--json", "watch"]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    /// Waits until the daemon counts this watcher.
    func waitForSubscription() -> Bool {
        eventually { process.isRunning } && { usleep(300_000); return process.isRunning }()
    }

    /// The next event matching `predicate`, within `timeout` seconds.
    func next(timeout: Double = 10, where predicate: (WatchEvent) -> Bool) -> WatchEvent? {
        let deadline = Date().addingTimeInterval(timeout)
        let fd = pipe.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[..<newline]
                buffer.removeSubrange(...newline)
                if let event = try? JSONDecoder().decode(WatchEvent.self, from: line), predicate(event) { return event }
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
        return nil
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
