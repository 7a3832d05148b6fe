import Foundation
import MeshTestSupport
import Testing
@testable import MeshConfig

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
        var config = DaemonSettings()
        try ConfigLoader.apply(invocation.overrides, to: &config)
        #expect(config.udp.port == 2)
    }

    @Test func missingDefaultFileIsFineButAGivenOneIsNot() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/absent.conf"
        #expect(try ConfigLoader.load(path: path, mayBeMissing: true, overrides: []) == DaemonSettings())
        let error = thrownError(ConfigError.self) {
            try ConfigLoader.load(path: path, mayBeMissing: false, overrides: [])
        }
        #expect(error?.description == "\(path): cannot read: No such file or directory")
        #expect(throws: ConfigError(file: directory.path, line: nil, problem: .notRegularFile("a directory"))) {
            try ConfigLoader.readFile(directory.path, mayBeMissing: false)
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

    @Test func anUnknownFlagIsUnknownEvenWithoutAValue() {
        #expect(throws: ConfigError(file: "--frob", line: nil, problem: .badFlag("unknown option; see meshnoded --help"))) {
            try DaemonCommandLine.parse(["--frob"])
        }
        #expect(throws: ConfigError(file: "--frob", line: nil, problem: .badFlag("unknown option; see meshnoded --help"))) {
            try DaemonCommandLine.parse(["--frob", "--check-config"])
        }
    }

    @Test func aRuleBrokenByFlagsBlamesTheFlagsNotAMissingFile() throws {
        let directory = try TemporaryDirectory()
        let absent = directory.path + "/absent.conf"
        var invocation = try DaemonCommandLine.parse(["--seen.max_clock_skew=10m", "--check-config"])
        invocation.configPath = absent
        let error = thrownError(ConfigError.self) { try invocation.loadConfig() }
        #expect(error?.file == "--seen.max_clock_skew")
        #expect(error?.description.contains(absent) == false)
        let present = directory.path + "/present.conf"
        try "[seen]\nexpiry = 10m\n".write(toFile: present, atomically: true, encoding: .utf8)
        invocation.configPath = present
        let both = thrownError(ConfigError.self) { try invocation.loadConfig() }
        #expect(both?.file == "\(present) and --seen.max_clock_skew")
        #expect(ConfigLoader.sources(file: nil, overrides: []) == "defaults")
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
        let config = try ConfigLoader.parse(text, file: "meshnoded.conf.example")
        #expect(config == DaemonSettings())
        for option in ConfigSchema.options {
            #expect(text.contains("\n#\(option.key) =") || text.contains("\n\(option.key) ="), "example lacks \(option.name)")
        }
    }
}
