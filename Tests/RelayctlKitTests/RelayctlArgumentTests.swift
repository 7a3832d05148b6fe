import ControlProtocol
import MeshTestSupport
import Testing
@testable import RelayctlKit

@Suite("relayctl arguments")
struct RelayctlArgumentTests {
    static let node = "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"

    @Test("valid command lines", arguments: [
        (["send", "hello", "world"], RelayctlInvocation(command: .send(text: "hello world", to: nil))),
        (["send", "--to", node, "hi"], RelayctlInvocation(command: .send(text: "hi", to: node))),
        (["--json", "send", "--to=" + node.uppercased(), "--", "-5 degrees"],  // no interpolation: Swift 6.0.3 crashes on it in @Test arguments
         RelayctlInvocation(command: .send(text: "-5 degrees", to: node.uppercased()), json: true)),
        (["send", "--to", "a0a1", "hi"], RelayctlInvocation(command: .send(text: "hi", to: "a0a1"))),
        (["send", "--to", "Kitchen", "--detach", "hi"], RelayctlInvocation(command: .send(text: "hi", to: "Kitchen", detach: true))),
        (["lookup", "Kitchen"], RelayctlInvocation(command: .lookup("Kitchen"))),
        (["cancel", "ffee"], RelayctlInvocation(command: .cancel("ffee"))),
        (["mailbox", "drop", "ffee"], RelayctlInvocation(command: .cancel("ffee"))),
        (["mailbox", "cancel", "ffee"], RelayctlInvocation(command: .cancel("ffee"))),
        (["mailbox"], RelayctlInvocation(command: .mailbox)),
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
        ([], "missing command"), (["reboot"], "unknown command 'reboot'"),
        (["send"], "send needs the message text (it may not be empty)"),
        (["send", ""], "send needs the message text (it may not be empty)"),
        (["send", "--to", "a0a1", ""], "send needs the message text (it may not be empty)"),
        (["send", "--to", "", "hi"], "--to needs a node: its ID, a prefix of 4 or more hex digits, or its name (see relayctl peers)"),
        (["send", "--detach", "hi"], "--detach only applies to send --to"),
        (["send", String(repeating: "x", count: 4097)], "the text is 4097 bytes; a message holds at most 4096 bytes of UTF-8 text: nothing was sent"),
        (["send", String(repeating: "é", count: 9000)], "the text is 18000 bytes; a message holds at most 4096 bytes of UTF-8 text: nothing was sent"),
        (["help", "frob"], "unknown command 'frob'; relayctl --help lists them"),
        (["frob", "--help"], "unknown command 'frob'; relayctl --help lists them"),
        (["mailbox", "empty"], "mailbox takes no arguments, or drop MESSAGE_ID"),
        (["mailbox", "drop"], "mailbox drop needs one message ID"),
        (["cancel"], "cancel needs one message ID (or a prefix of 4 or more hex digits; relayctl mailbox lists them)"),
        (["peers", "--to", node], "--to only applies to send"), (["peers", "extra"], "peers takes no arguments"),
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

    @Test func textOfExactly4096BytesIsAccepted() throws {
        let text = String(repeating: "x", count: 4096)
        #expect(try RelayctlArguments.parse(["send", text], environment: [:]) == RelayctlInvocation(command: .send(text: text, to: nil)))
    }

    @Test func argumentsThatAreNotUTF8AreRefused() throws {
        #expect(throws: Never.self) { try RelayctlArguments.checkEncoding([Array("send".utf8), Array("grüße".utf8)]) }
        let error = thrownError(RelayctlUsageError.self) {
            try RelayctlArguments.checkEncoding([Array("send".utf8), [0x67, 0x72, 0xFC, 0x65]])
        }
        #expect(error?.message.hasPrefix("argument 2 is not valid UTF-8") == true)
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
