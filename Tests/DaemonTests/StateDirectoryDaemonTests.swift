import Foundation
import Glibc
import Testing

/// Issue 33, items 4 and 11, with real daemons: one meshnoded per state directory, and every
/// file it creates there private whatever the umask it was started with.
@Suite("meshnoded's state directory: one daemon, private files", .serialized)
struct StateDirectoryDaemonTests {
    @Test("a second meshnoded on the same state directory exits 69 naming the first one's PID")
    func secondDaemonIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try DaemonProcess(name: "a", folder: folder.url, port: Ports.block(of: 2))
        try first.start()
        defer { _ = first.terminate() }
        #expect(eventually { first.ctl("status").status == 0 }, "the first daemon answers")
        let before = first.ctl("--json", "id").out
        let result = try #require(try StartupFailureTests.run([
            "--transport", "udp", "--udp-port", "\(first.port + 1)", "--state-directory", first.folder.path,
            "--runtime-directory", folder.url.path, "--control-socket", folder.url.appendingPathComponent("second.sock").path,
        ]), "the second meshnoded did not exit")
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr == "meshnoded: error: cannot start: state directory \(first.folder.path) is in use by another "
            + "meshnoded (PID \(first.process.processIdentifier)); stop it, or give this one its own [node] state_directory.\n")
        #expect(first.ctl("--json", "id").out == before, "the first daemon is untouched")
    }

    @Test("under umask 022 every file meshnoded creates in its state directory is 0600")
    func stateFilesArePrivate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let node = try DaemonProcess(name: "a", folder: folder.url, port: Ports.block(of: 1))
        let previous = umask(0o022)
        try node.start()
        umask(previous)
        defer { _ = node.terminate() }
        let expected = ["mailbox.db", "mailbox.db-wal", "mailbox.db-shm", "seen.journal", "meshnoded.lock"]
        #expect(eventually { node.ctl("status").status == 0 && expected.allSatisfy { FileManager.default.fileExists(atPath: node.folder.appendingPathComponent($0).path) } },
                "files: \((try? FileManager.default.contentsOfDirectory(atPath: node.folder.path)) ?? [])")
        let created = try FileManager.default.contentsOfDirectory(atPath: node.folder.path).filter { $0 != "meshnoded.log" }
        #expect(Set(expected).isSubset(of: Set(created)))
        for name in created {
            var info = stat()
            guard lstat(node.folder.appendingPathComponent(name).path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            #expect(info.st_mode & 0o077 == 0, "\(name) is \(String(info.st_mode & 0o777, radix: 8))")
        }
    }
}
