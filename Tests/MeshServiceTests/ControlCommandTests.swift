import ControlProtocol
import Foundation
import Testing
@testable import MeshService
@testable import RelayctlKit

/// `ControlCommand` is the one list of commands: meshnoded's dispatch and relayctl's parser and
/// help are derived from it; the bash completion and relayctl(1) are checked against it here.
@Suite("control command vocabulary")
struct ControlCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// What relayctl accepts as its first word: every command and `help`.
    static let relayctlWords = Set(ControlCommand.allCases.map(\.rawValue) + [RelayctlArguments.helpCommand])

    static func file(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func reply(to line: String) -> String {
        String(decoding: ControlRequestHandler(node: FakeNode()).handle(Array(line.utf8)).reply, as: UTF8.self)
    }

    @Test("an unknown command, and doctor, get the unknown_command reply byte for byte as before (lookup, mailbox, cancel added last)")
    func unknownCommandReply() {
        let expected = #"{"error":{"code":"unknown_command","message":"unknown command; expected one of "#
            + #"send, peers, stats, status, id, watch, lookup, mailbox, cancel"},"id":7,"ok":false}"# + "\n"
        #expect(Self.reply(to: #"{"id":7,"command":"reboot"}"#) == expected)
        #expect(Self.reply(to: #"{"id":7,"command":"doctor"}"#) == expected)
        #expect(Self.reply(to: #"{"id":7,"command":"help"}"#) == expected)
    }

    @Test("meshnoded serves every command but doctor", arguments: ControlCommand.allCases)
    func servedCommandsAreDispatched(_ command: ControlCommand) {
        let outcome = ControlRequestHandler(node: FakeNode())
            .handle(Array(#"{"command":"\#(command.rawValue)","text":"hi"}"#.utf8))
        #expect((outcome.failure == .unknownCommand) == !command.isServed)
        #expect(outcome.startsWatch == (command == .watch))
    }

    @Test("relayctl parses every command", arguments: ControlCommand.allCases)
    func relayctlParsesEveryCommand(_ command: ControlCommand) throws {
        let node = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
        let words = command == .send ? ["send", "hi"] : command == .lookup || command == .cancel ? [command.rawValue, node] : [command.rawValue]
        let parsed = try RelayctlArguments.parse(words, environment: [:]).command
        let expected: RelayctlCommand = switch command {
        case .send: .send(text: "hi", to: nil)
        case .lookup: .lookup(node)
        case .peers: .peers
        case .stats: .stats
        case .status: .status
        case .id: .id
        case .mailbox: .mailbox
        case .cancel: .cancel(node)
        case .watch: .watch
        case .doctor: .doctor(config: nil, socket: nil)
        }
        #expect(parsed == expected)
    }

    @Test("relayctl --help lists exactly the commands, each with its summary")
    func helpListsExactlyTheCommands() throws {
        let help = RelayctlHelp.text(nil)
        let commands = try #require(help.components(separatedBy: "Commands:\n").last)
        let list = try #require(commands.components(separatedBy: "\n\n").first)
        let lines = list.split(separator: "\n")
        #expect(lines.compactMap { $0.split(separator: " ").first.map(String.init) } == ControlCommand.allCases.map(\.rawValue))
        for (line, command) in zip(lines, ControlCommand.allCases) {
            #expect(line.hasSuffix(" " + command.summary))
        }
    }

    @Test("the bash completion offers exactly the commands and help")
    func completionOffersExactlyTheCommands() throws {
        let script = try Self.file("completion/relayctl.bash")
        let prefix = "local commands=\""
        let line = try #require(script.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) })
        let list = line.trimmingCharacters(in: .whitespaces).dropFirst(prefix.count).prefix { $0 != "\"" }
        let words = list.split(separator: " ").map(String.init)
        #expect(words.count == Set(words).count, "a command is listed twice in completion/relayctl.bash")
        #expect(Set(words) == Self.relayctlWords)
    }

    @Test("relayctl(1)'s COMMANDS section has an entry for exactly the commands and help")
    func manPageListsExactlyTheCommands() throws {
        let page = try Self.file("man/relayctl.1")
        let fromCommands = try #require(page.components(separatedBy: "\n.SH COMMANDS\n").last)
        let section = try #require(fromCommands.components(separatedBy: "\n.SH ").first)
        let lines = section.components(separatedBy: "\n")
        let tags = zip(lines, lines.dropFirst()).filter { $0.0 == ".TP" }.map(\.1)
        let names = tags.compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
        #expect(names.count == Set(names).count, "a command has two entries in man/relayctl.1")
        #expect(Set(names) == Self.relayctlWords)
    }
}
