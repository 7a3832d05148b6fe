import ControlProtocol
import Foundation
import Glibc
import MeshService
import Testing

@Suite("meshnoded lifecycle", .serialized)
struct LifecycleTests {
    @Test("SIGTERM exits 0 within 2 s; kill -9 and a restart keep the node ID")
    func stopAndRestart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = Ports.block(of: 1)
        let first = try DaemonProcess(name: "solo", folder: folder.url, port: port)
        try first.start()
        #expect(eventually { first.json(StatusReport.self, "status")?.state == "running" })
        let before = try #require(first.json(IdentityReport.self, "id"))
        first.killHard()

        let second = try DaemonProcess(name: "solo", folder: folder.url, port: port)
        try second.start()
        #expect(eventually { second.json(StatusReport.self, "status")?.state == "running" })
        let after = try #require(second.json(IdentityReport.self, "id"))
        #expect(after.nodeID == before.nodeID)
        #expect(after.fingerprint == before.fingerprint)
        let stopped = second.terminate()
        #expect(stopped.status == 0)
        #expect(stopped.seconds < 2)
        #expect(!FileManager.default.fileExists(atPath: second.socketPath))
    }

    @Test("A malformed config stops start-up naming its file and line")
    func malformedConfig() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = folder.url.appendingPathComponent("meshnoded.conf")
        try "[node]\nname = ok\n[relay]\nttl.mesage = 3\n".write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = Binaries.meshnoded
        process.arguments = ["--config", config.path, "--state-directory", folder.url.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 78)
        #expect(message.contains("meshnoded.conf:4"))
        #expect(message.contains("ttl.mesage"))
        // Nothing was touched: no identity was created.
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("identity.key").path))
    }
}

@Suite("meshnoded reload", .serialized)
struct ReloadTests {
    @Test("SIGHUP reloads the relay table: with ttl.message = 1, B stops relaying A's messages to C")
    func reloadRelayTable() throws {
        let folder = try TemporaryFolder()
        let config = folder.url.appendingPathComponent("meshnoded.conf")
        try "[relay]\nttl.message = 3\n".write(to: config, atomically: true, encoding: .utf8)
        let line = try LineOfNodes(count: 3, extra: ["--config", config.path])
        defer {
            line.stop()
            folder.remove()
        }
        #expect(line.waitUntilLinked())
        _ = line.nodes[0].ctl("send", "before reload")
        #expect(eventually { line.counter(2, "message", "delivered") == 1 })

        try "[relay]\nttl.message = 1\n".write(to: config, atomically: true, encoding: .utf8)
        kill(line.nodes[1].process.processIdentifier, SIGHUP)
        #expect(eventually { line.nodes[1].log.contains("reloaded") })
        _ = line.nodes[0].ctl("send", "after reload")
        #expect(eventually { line.counter(1, "message", "delivered") == 2 })
        #expect(line.counter(1, "message", "relayed") == 1)
        #expect(line.counter(2, "message", "delivered") == 1)
    }
}
