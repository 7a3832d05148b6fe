import Foundation
import Glibc
import Testing

/// Issue 11: start-up failures end with one sentence naming the file and its documented
/// exit code (docs/OPERATIONS.md, "Exit codes"), never Swift debug text or a hang.
@Suite("meshnoded start-up failures", .serialized)
struct StartupFailureTests {
    /// Runs meshnoded to its exit; nil when it was still running after `timeout` seconds (then killed).
    static func run(_ arguments: [String], timeout: Double = 15) throws -> (status: Int32, stderr: String)? {
        let process = Process()
        process.executableURL = Binaries.meshnoded
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = nil
        environment["JOURNAL_STREAM"] = nil
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        guard eventually(timeout: timeout, { !process.isRunning }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }

    static func nodeArguments(_ folder: TemporaryFolder) -> [String] {
        ["--transport", "udp", "--udp-port", "\(Ports.block(of: 1))", "--state-directory", folder.url.path,
         "--runtime-directory", folder.url.path]
    }

    /// Damaged identity files: what is wrong, the bytes, what the error says (the element type
    /// written out: Swift 6.0's type checker gives up on the literal without it).
    static let damagedIdentities: [(String, [UInt8], String)] = [
        ("truncated", Array("MNID".utf8) + [1] + [UInt8](repeating: 7, count: 45), "it is 50 bytes long, not 101"),
        ("garbage", [UInt8](repeating: 0x41, count: 101), "it does not start with \"MNID\""),
        ("bit flip", Array("MNID".utf8) + [1] + [UInt8](repeating: 9, count: 96), "its checksum does not match its contents"),
    ]

    @Test("A damaged identity file stops start-up with one sentence and exit 65", arguments: damagedIdentities)
    func damagedIdentity(_ kind: String, _ contents: [UInt8], _ problem: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let key = folder.url.appendingPathComponent("identity.key").path
        #expect(FileManager.default.createFile(atPath: key, contents: Data(contents), attributes: [.posixPermissions: 0o600]))
        let result = try #require(try Self.run(Self.nodeArguments(folder)), "meshnoded did not exit")
        #expect(result.status == 65, "\(kind): \(result.stderr)")
        #expect(result.stderr == "meshnoded: error: cannot start: identity file \(key) is damaged: \(problem); "
            + "restore it from a backup, or move it away to make a new node identity.\n")
        // Never replaced silently.
        #expect(FileManager.default.contents(atPath: key) == Data(contents))
    }

    @Test("An identity file open to others stops start-up with exit 65 and says how to fix it")
    func insecureIdentity() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let key = folder.url.appendingPathComponent("identity.key").path
        #expect(FileManager.default.createFile(atPath: key, contents: Data(count: 101), attributes: [.posixPermissions: 0o644]))
        let result = try #require(try Self.run(Self.nodeArguments(folder)), "meshnoded did not exit")
        #expect(result.status == 65)
        #expect(result.stderr == "meshnoded: error: cannot start: identity file \(key) has mode 644, "
            + "open to group or others; make it 600 (chmod 600).\n")
    }

    @Test("A second transport whose port is taken stops start-up with exit 69, naming that transport")
    func secondTransportPortInUse() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let taken = Ports.block(of: 1)
        let holder = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(holder >= 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = taken.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0)
        let result = try #require(
            try Self.run(Self.nodeArguments(folder) + ["--transport", "udp,lan", "--lan.port", "\(taken)"]), "meshnoded did not exit")
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("meshnoded: error: cannot start: the lan transport cannot be opened: "), "\(result.stderr)")
    }

    @Test("--config naming a FIFO with no writer is refused at once with exit 78")
    func fifoConfig() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fifo = folder.url.appendingPathComponent("meshnoded.conf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try Self.run(["--config", fifo, "--check-config"])
        if result == nil {
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        let finished = try #require(result, "meshnoded waited on the FIFO")
        #expect(finished.status == 78)
        #expect(finished.stderr == "meshnoded: \(fifo): not a regular file but a FIFO\n")
    }
}
