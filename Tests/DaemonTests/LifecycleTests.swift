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
