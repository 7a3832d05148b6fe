import Foundation
import Glibc
import MeshTestSupport
import Testing
@testable import MeshService

/// Issue 33, item 3: every file a setting names is opened and parsed by the checks
/// `--check-config` and start-up share, and a bad one is an EX_CONFIG (78) line naming the file.
@Suite("files named by settings are checked with the configuration")
struct ConfigFileCheckTests {
    /// A throwaway self-signed P-256 certificate and its key, and a key of another certificate
    /// (made with openssl req -x509 -newkey ec for this test; expiry does not matter to parsing).
    static let certificate = """
-----BEGIN CERTIFICATE-----
MIIBbjCCARWgAwIBAgIUfDdn//7CYmvm0Kn4epxj7AN+RiYwCgYIKoZIzj0EAwIw
DTELMAkGA1UEAwwCY2EwHhcNMjYxMjA1MjM1NTEzWhcNMjYxMjA3MjM1NTEzWjAN
MQswCQYDVQQDDAJjYTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABO+gKb7+iV9c
EfsX03IqRVBZvraRejmDDABWnsB0q6GhwkgXdV+yZ/KJQU09Mjxcs9RKmxM8D8Tn
2sEWO9xMZnKjUzBRMB0GA1UdDgQWBBRKuNF8rS0Ebp7QS0zIFls0JrgTeDAfBgNV
HSMEGDAWgBRKuNF8rS0Ebp7QS0zIFls0JrgTeDAPBgNVHRMBAf8EBTADAQH/MAoG
CCqGSM49BAMCA0cAMEQCIGTG8iVf6PvC4gt80lu1qeyXGe+NIhraexc5qBvH6DEF
AiBkucQzMV72MZJGn4w43/JgByCKhESqeYNI35Zr21Dpmg==
-----END CERTIFICATE-----
"""
    static let key = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgCA3PsyD4H8qOGmCP
XbMQ4/h2xurLRVCrpXTRxY7ANyahRANCAATvoCm+/olfXBH7F9NyKkVQWb62kXo5
gwwAVp7AdKuhocJIF3VfsmfyiUFNPTI8XLPUSpsTPA/E59rBFjvcTGZy
-----END PRIVATE KEY-----
"""
    static let otherKey = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgbf8cc8mEoJ08sTKO
yzsLR68Hw9jwFx+LIW6xFeFFMk6hRANCAAQMY87Mqn3XSvueOiSDkwb9b9AI3a3z
ovNE7yOXYcwusRY10F6yTJcyb4YJVqTGaJp+e43OGLsknxYoPTdBNLAM
-----END PRIVATE KEY-----
"""

    struct Files {
        let directory: TemporaryDirectory
        init() throws {
            directory = try TemporaryDirectory()
            for (name, text) in [("ca.pem", certificate), ("ca.key", key), ("other.key", otherKey), ("junk", "not PEM at all\n"),
                                 ("password", "secret\n")] {
                try text.write(toFile: directory.path + "/" + name, atomically: true, encoding: .utf8)
            }
        }
        func path(_ name: String) -> String { directory.path + "/" + name }
    }

    static func prepare(_ flags: [String]) -> DaemonStartup.Outcome {
        DaemonStartup.prepare(["--mqtt.enabled=true"] + flags + ["--check-config"], environment: [:])
    }

    @Test func goodFilesPassTheCheck() throws {
        let files = try Files()
        #expect(Self.prepare([
            "--mqtt.ca_file=\(files.path("ca.pem"))", "--mqtt.cert_file=\(files.path("ca.pem"))",
            "--mqtt.key_file=\(files.path("ca.key"))", "--mqtt.password_file=\(files.path("password"))",
        ]) == .exit(code: 0, output: "configuration OK\n", error: ""))
    }

    @Test("a missing or unusable file is exit 78 naming the file and the setting")
    func badFilesAreConfigErrors() throws {
        let files = try Files()
        let cases: [([String], String)] = [
            (["--mqtt.ca_file=/nonexistent.pem"], "/nonexistent.pem: [mqtt] ca_file: cannot open: No such file or directory"),
            (["--mqtt.ca_file=\(files.path("junk"))"], "\(files.path("junk")): [mqtt] ca_file: holds no PEM certificate (-----BEGIN CERTIFICATE-----)"),
            (["--mqtt.ca_file=\(files.path("ca.key"))"], "\(files.path("ca.key")): [mqtt] ca_file: holds no PEM certificate (-----BEGIN CERTIFICATE-----)"),
            (["--mqtt.ca_file=\(files.path("ca.pem"))", "--mqtt.cert_file=\(files.path("ca.pem"))", "--mqtt.key_file=\(files.path("junk"))"],
             "\(files.path("junk")): [mqtt] key_file: holds no unencrypted PEM private key"),
            (["--mqtt.ca_file=\(files.path("ca.pem"))", "--mqtt.cert_file=\(files.path("ca.pem"))", "--mqtt.key_file=\(files.path("other.key"))"],
             "\(files.path("other.key")): [mqtt] key_file: the key does not belong to the certificate \(files.path("ca.pem"))"),
            (["--mqtt.ca_file=\(files.path("ca.pem"))", "--mqtt.cert_file=\(files.path("ca.pem"))"],
             "[mqtt]: cert_file and key_file go together: set both or neither"),
            (["--mqtt.ca_file=\(files.directory.path)"], "\(files.directory.path): [mqtt] ca_file: not a regular file"),
            (["--mqtt.password_file=/nonexistent/password"], "/nonexistent/password: [mqtt] password_file: cannot open: No such file or directory"),
        ]
        for (flags, message) in cases {
            #expect(Self.prepare(flags) == .exit(code: 78, output: "", error: "meshnoded: \(message)\n"), "\(flags)")
        }
    }

    @Test func aCredentialNameIsCheckedOnlyWhereSystemdGivesItsDirectory() throws {
        let files = try Files()
        #expect(Self.prepare(["--mqtt.password_file=mqtt-password"]) == .exit(code: 0, output: "configuration OK\n", error: ""))
        let outcome = DaemonStartup.prepare(
            ["--mqtt.enabled=true", "--mqtt.password_file=absent", "--check-config"],
            environment: ["CREDENTIALS_DIRECTORY": files.directory.path])
        #expect(outcome == .exit(code: 78, output: "", error: "meshnoded: \(files.path("absent")): [mqtt] password_file: cannot open: No such file or directory\n"))
    }

    @Test func filesOfADisabledBridgeAreNotRead() {
        #expect(DaemonStartup.prepare(["--mqtt.ca_file=/nonexistent.pem", "--check-config"], environment: [:])
            == .exit(code: 0, output: "configuration OK\n", error: ""))
    }

    @Test("the unit does not restart on a configuration error: one journal line, not a loop")
    func unitDoesNotRestartOnConfigErrors() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let unit = try String(contentsOf: root.appendingPathComponent("systemd/meshnoded.service"), encoding: .utf8)
        let prevented = unit.split(separator: "\n").first { $0.hasPrefix("RestartPreventExitStatus=") }
            .map { $0.dropFirst("RestartPreventExitStatus=".count).split(separator: " ").compactMap { Int32($0) } } ?? []
        for code in [MeshnodedExitCode.config, .usage, .identity] {
            #expect(prevented.contains(code.rawValue), "exit \(code.rawValue) is restarted")
        }
        #expect(Self.prepare(["--mqtt.ca_file=/nonexistent.pem"]) == .exit(
            code: MeshnodedExitCode.config.rawValue, output: "",
            error: "meshnoded: /nonexistent.pem: [mqtt] ca_file: cannot open: No such file or directory\n"))
    }
}
