import Foundation
import Glibc
import MeshService

/// Where the built executables are: next to the test bundle.
enum Binaries {
    static let directory: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()]
        where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("meshnoded").path) {
            return candidate
        }
        return bundle
    }()
    static var meshnoded: URL { directory.appendingPathComponent("meshnoded") }
    static var relayctl: URL { directory.appendingPathComponent("relayctl") }
    /// meshflood, a measurement tool of the Benchmarks package: `$MESHFLOOD` when set, else the
    /// same configuration's build there (`swift build --package-path Benchmarks --product meshflood`,
    /// which scripts/test.sh runs before the tests).
    static var meshflood: URL {
        if let path = getenv("MESHFLOOD").map({ String(cString: $0) }), !path.isEmpty { return URL(fileURLWithPath: path) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        return root.appendingPathComponent("Benchmarks/.build/\(configuration)/meshflood")
    }
}

/// A fresh temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let url: URL
    init() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("meshnode-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        url = path
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A port range unlikely to collide between concurrently running tests.
enum Ports {
    private static let counter = Counter()
    static func block(of size: Int) -> UInt16 {
        let base = 30000 + Int(getpid() % 500) * 40
        return UInt16(base + counter.next(by: size))
    }

    final class Counter: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var value = 0
        func next(by size: Int) -> Int {
            lock.lock()
            defer { lock.unlock() }
            defer { value += size }
            return value
        }
    }
}

/// One meshnoded process over the UDP transport.
final class DaemonProcess {
    let name: String
    let folder: URL
    let port: UInt16
    let process = Process()
    let logURL: URL

    /// `throughShell` starts the daemon from a `/bin/sh` that execs it (same process ID), for a
    /// preloaded library whose start-up in the daemon itself would disturb it (see `FakeTime`).
    init(name: String, folder: URL, port: UInt16, neighbours: [UInt16] = [], extra: [String] = [],
         environment: [String: String] = [:], throughShell: Bool = false) throws {
        self.name = name
        self.folder = folder.appendingPathComponent(name)
        self.port = port
        try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        logURL = self.folder.appendingPathComponent("meshnoded.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.executableURL = Binaries.meshnoded
        var arguments = [
            "--transport", "udp", "--udp-port", "\(port)", "--state-directory", self.folder.path,
            "--runtime-directory", self.folder.path, "--name", name, "--log-level", "debug",
            "--udp.keepalive_interval", "200ms", "--udp.link_timeout", "1s", "--udp.connect_interval", "200ms",
        ]
        if !neighbours.isEmpty { arguments += ["--neighbours", neighbours.map { "127.0.0.1:\($0)" }.joined(separator: ",")] }
        process.arguments = arguments + extra
        if throughShell {
            process.arguments = ["-c", "exec \"$0\" \"$@\"", Binaries.meshnoded.path] + arguments + extra
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
        }
        var env = ProcessInfo.processInfo.environment
        env["NOTIFY_SOCKET"] = nil
        env["JOURNAL_STREAM"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let log = try FileHandle(forWritingTo: logURL)
        process.standardError = log
        process.standardOutput = log
    }

    var socketPath: String { folder.appendingPathComponent("control.sock").path }

    func start() throws { try process.run() }

    /// Sends SIGTERM and returns the exit status and how long the exit took. A node still
    /// running after `timeout` is killed (status -1), so a hang fails the test instead of
    /// stalling the suite.
    func terminate(timeout: Double = 10) -> (status: Int32, seconds: Double) {
        let start = Date()
        kill(process.processIdentifier, SIGTERM)
        guard waitForExit(timeout: timeout) else {
            killHard()
            return (-1, Date().timeIntervalSince(start))
        }
        process.waitUntilExit()
        return (process.terminationStatus, Date().timeIntervalSince(start))
    }

    /// Waits up to `timeout` seconds for the process to exit; true when it did.
    func waitForExit(timeout: Double) -> Bool {
        eventually(timeout: timeout) { !process.isRunning }
    }

    func killHard() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Runs relayctl against this node.
    func ctl(_ arguments: String...) -> (status: Int32, out: String, err: String) {
        Relayctl.run(["--socket", socketPath] + arguments)
    }

    /// Decodes `relayctl --json COMMAND` output.
    func json<T: Decodable>(_ type: T.Type, _ command: String) -> T? {
        let result = Relayctl.run(["--socket", socketPath, "--json", command])
        guard result.status == 0 else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(result.out.utf8))
    }
}

enum Relayctl {
    static func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = Binaries.relayctl
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { return (-1, "", "\(error)") }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

/// Polls `condition` until it holds or `timeout` passes; for process tests only.
func eventually(timeout: Double = 15, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(100_000)
    }
    return condition()
}
