import Foundation
import Testing
@testable import MeshService

@Suite("configuration file reading and flags")
struct ConfigSourceTests {
    @Test func flagsOverrideTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/meshnoded.conf"
        try "[udp]\nport = 7001\nmtu = 100\n[node]\nname = from file\n".write(toFile: path, atomically: true, encoding: .utf8)
        let invocation = try DaemonCommandLine.parse([
            "--config", path, "--udp-port", "7005", "--udp.mtu=200", "--name=from flag", "--relay.ttl.message", "5",
        ])
        let config = try invocation.loadConfig()
        #expect(config.udp.port == 7005)
        #expect(config.udp.mtu == 200)
        #expect(config.node.name == "from flag")
        #expect(config.relay.ttlMessage == 5)
        #expect(invocation.action == .run)
    }

    @Test func laterFlagsWin() throws {
        let invocation = try DaemonCommandLine.parse(["--udp-port=1", "--udp.port=2", "--config=/nonexistent"])
        var config = DaemonConfig()
        try DaemonConfigLoader.apply(invocation.overrides, to: &config)
        #expect(config.udp.port == 2)
    }

    @Test func missingDefaultFileIsFineButAGivenOneIsNot() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/absent.conf"
        #expect(try DaemonConfigLoader.load(path: path, mayBeMissing: true, overrides: []) == DaemonConfig())
        let error = #expect(throws: ConfigError.self) {
            try DaemonConfigLoader.load(path: path, mayBeMissing: false, overrides: [])
        }
        #expect(error?.description == "\(path): cannot read: No such file or directory")
        #expect(throws: ConfigError(file: directory.path, line: nil, problem: .notRegularFile("a directory"))) {
            try DaemonConfigLoader.readFile(directory.path, mayBeMissing: false)
        }
    }

    @Test func badFlagsNameTheFlag() {
        #expect(throws: ConfigError(file: "--udp-port", line: nil, problem: .invalidValue(
            key: "port", section: "udp", value: "x", expected: "an integer in 1...65535"))) {
            try DaemonCommandLine.parse(["--udp-port=x"]).loadConfig()
        }
        #expect(throws: ConfigError(file: "--udp.prot=1", line: nil, problem: .badFlag("unknown option; see meshnoded --help"))) {
            try DaemonCommandLine.parse(["--udp.prot=1"])
        }
        #expect(throws: ConfigError(file: "--udp-port", line: nil, problem: .badFlag("missing value"))) {
            try DaemonCommandLine.parse(["--udp-port"])
        }
        #expect(throws: ConfigError.self) { try DaemonCommandLine.parse(["stray"]) }
    }

    @Test func actions() throws {
        #expect(try DaemonCommandLine.parse(["--help"]).action == .help)
        #expect(try DaemonCommandLine.parse(["--check-config"]).action == .checkConfig)
        #expect(try DaemonCommandLine.parse(["--print-config"]).action == .printConfig)
        #expect(try DaemonCommandLine.parse(["--version"]).action == .version)
        #expect(try DaemonCommandLine.parse(["-c", "/x"]).configPathGiven)
    }

    @Test func helpListsEveryOptionAndAlias() {
        let help = DaemonCommandLine.helpText
        for option in ConfigSchema.options {
            #expect(help.contains("--\(option.name)="), "missing \(option.name)")
            if let alias = option.alias { #expect(help.contains("--\(alias)")) }
        }
    }

    @Test func shippedExampleLoadsAndDocumentsEveryKey() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../systemd/meshnoded.conf.example").standardizedFileURL
        let text = try String(contentsOf: url, encoding: .utf8)
        let config = try DaemonConfigLoader.parse(text, file: "meshnoded.conf.example")
        #expect(config == DaemonConfig())
        for option in ConfigSchema.options {
            #expect(text.contains("\n#\(option.key) =") || text.contains("\n\(option.key) ="), "example lacks \(option.name)")
        }
    }
}

/// A fresh directory under /tmp, removed when the value goes away.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        // mkdtemp replaces the trailing six X characters with a unique suffix.
        var template = Array(("/tmp/svc-" + String(repeating: "X", count: 6)).utf8CString)
        guard let result = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: result)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

@Suite("meshnoded start-up decisions")
struct DaemonStartupTests {
    @Test func badFlagIsAUsageErrorAndBadValueAConfigError() {
        guard case .exit(64, "", let unknown) = DaemonStartup.prepare(["--nope=1"]) else {
            Issue.record("unknown flag must exit 64")
            return
        }
        #expect(unknown.hasPrefix("meshnoded: --nope=1: unknown option"))
        #expect(DaemonStartup.prepare(["--udp-port=x", "--config=/nonexistent/a.conf"])
            == .exit(code: 78, output: "", error: "meshnoded: /nonexistent/a.conf: cannot read: No such file or directory\n"))
    }

    @Test func checkPrintHelpVersionAndRun() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/meshnoded.conf"
        try "[udp]\nport = 7009\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(DaemonStartup.prepare(["-c", path, "--check-config"]) == .exit(code: 0, output: "configuration OK\n", error: ""))
        guard case .exit(0, let printed, "") = DaemonStartup.prepare(["-c", path, "--print-config", "--mtu=99"]) else {
            Issue.record("print-config must exit 0")
            return
        }
        #expect(printed.contains("\nport = 7009\n") && printed.contains("\nmtu = 99\n") && printed.contains("\ncontrol_socket =\n"))
        #expect(DaemonStartup.prepare(["--version"]) == .exit(code: 0, output: "meshnoded \(DaemonVersion.current)\n", error: ""))
        guard case .run(let config, let invocation) = DaemonStartup.prepare(["-c", path, "--name", "Hall"]) else {
            Issue.record("a valid configuration must run")
            return
        }
        #expect(config.udp.port == 7009 && config.node.name == "Hall" && invocation.configPath == path)
        let error = "meshnoded: \(path):1: unknown section [nope]\n"
        try "[nope]\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(DaemonStartup.prepare(["-c", path]) == .exit(code: 78, output: "", error: error))
    }
}
