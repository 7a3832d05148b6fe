import ControlProtocol
import Testing
@testable import RelayctlKit

@Suite("relayctl arguments")
struct RelayctlArgumentTests {
    static let node = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"

    @Test("valid command lines", arguments: [
        (["send", "hello", "world"], RelayctlInvocation(command: .send(text: "hello world", to: nil))),
        (["send", "--to", node, "hi"], RelayctlInvocation(command: .send(text: "hi", to: node))),
        (["--json", "send", "--to=" + node.uppercased(), "--", "-5 degrees"],  // no interpolation: Swift 6.0.3 crashes on it in @Test arguments
         RelayctlInvocation(command: .send(text: "-5 degrees", to: node), json: true)),
        (["peers", "--json"], RelayctlInvocation(command: .peers, json: true)),
        (["--socket", "/tmp/s", "stats"], RelayctlInvocation(command: .stats, socketPath: "/tmp/s")),
        (["watch", "--socket=/tmp/w"], RelayctlInvocation(command: .watch, socketPath: "/tmp/w")),
        (["status"], RelayctlInvocation(command: .status)),
        (["id"], RelayctlInvocation(command: .id)),
        (["--help"], RelayctlInvocation(command: .help(nil))),
        (["send", "--help"], RelayctlInvocation(command: .help("send"))),
        (["help", "peers"], RelayctlInvocation(command: .help("peers"))),
    ])
    func valid(_ arguments: [String], _ expected: RelayctlInvocation) throws {
        #expect(try RelayctlArguments.parse(arguments, environment: [:]) == expected)
    }

    @Test("usage errors", arguments: [
        ([], "missing command"), (["reboot"], "unknown command 'reboot'"), (["send"], "send needs the message text"),
        (["send", "--to", "abc", "hi"], "--to needs a 32-hex-digit node ID (see relayctl peers)"),
        (["peers", "--to", node], "--to only applies to send"), (["stats", "extra"], "stats takes no arguments"),
        (["--socket"], "--socket needs a value"), (["id", "--verbose"], "unknown option --verbose"),
    ])
    func usage(_ arguments: [String], _ message: String) {
        #expect(throws: RelayctlUsageError.self) { try RelayctlArguments.parse(arguments, environment: [:]) }
        do {
            _ = try RelayctlArguments.parse(arguments, environment: [:])
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func environmentSetsTheDefaultSocketAndTheFlagWins() throws {
        let environment = ["RELAYCTL_SOCKET": "/tmp/env.sock"]
        #expect(try RelayctlArguments.parse(["id"], environment: environment).socketPath == "/tmp/env.sock")
        #expect(try RelayctlArguments.parse(["id", "--socket", "/x"], environment: environment).socketPath == "/x")
        #expect(try RelayctlArguments.parse(["id"], environment: [:]).socketPath == ControlSocketDefaults.path)
    }

    @Test func everyCommandHasHelp() {
        for command in ControlCommand.allCases.map(\.rawValue) {
            #expect(RelayctlHelp.text(command).hasPrefix(RelayctlHelp.usage(command)))
        }
        #expect(RelayctlHelp.text(nil).contains("Exit codes: 0 ok, 64 usage, 65"))
    }
}
