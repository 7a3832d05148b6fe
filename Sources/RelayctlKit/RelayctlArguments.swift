import ControlProtocol
import MeshProtocol

/// Parses relayctl's arguments: global `--json`, `--socket PATH`, `--help`, then a command.
public enum RelayctlArguments {
    /// relayctl's own word for help, `relayctl help [COMMAND]`; not a `ControlCommand`.
    public static let helpCommand = "help"

    /// Parses the arguments after the program name; `RELAYCTL_SOCKET` sets the default socket.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(RelayctlUsageError) -> RelayctlInvocation {
        var explicitSocket = environment["RELAYCTL_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        var socket: String { explicitSocket ?? RelayctlInvocation.defaultSocket }
        var config: String?
        var json = false
        var wantsHelp = false
        var to: String?
        var detach = false
        var exposition: MetricsFormatter.Exposition?
        var command: String?
        var words: [String] = []
        var index = 0
        var onlyWords = false
        func value(_ flag: String, inline: String?) throws(RelayctlUsageError) -> String {
            if let inline { return inline }
            guard index < arguments.count else { throw RelayctlUsageError("\(flag) needs a value", command: command) }
            index += 1
            return arguments[index - 1]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyWords || !argument.hasPrefix("-") || argument == "-" {
                if command == nil { command = argument } else { words.append(argument) }
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let inline = parts.count == 2 ? parts[1] : nil
            switch parts[0] {
            case "--": onlyWords = true
            case "--json": json = true
            case "-h", "--help": wantsHelp = true
            case "--socket", "-s": explicitSocket = try value("--socket", inline: inline)
            case "--config", "-c": config = try value("--config", inline: inline)
            case "--to", "-t": to = try value("--to", inline: inline)
            case "--detach", "-d": detach = true
            case "--openmetrics": exposition = .openMetrics
            case "--prometheus": exposition = .prometheus
            default: throw RelayctlUsageError("unknown option \(parts[0])", command: command)
            }
        }
        if wantsHelp || command == helpCommand {
            let topic = command == helpCommand ? words.first : command
            if let topic, topic != helpCommand, ControlCommand(rawValue: topic) == nil {
                throw RelayctlUsageError("unknown command '\(PlainText.sanitized(topic, maxBytes: 64))'; relayctl --help lists them")
            }
            return RelayctlInvocation(command: .help(topic), socketPath: socket, json: json)
        }
        guard let name = command else { throw RelayctlUsageError("missing command") }
        guard let command = ControlCommand(rawValue: name) else {
            throw RelayctlUsageError("unknown command '\(PlainText.sanitized(name, maxBytes: 64))'")
        }
        if command != .send, to != nil { throw RelayctlUsageError("--to only applies to send", command: name) }
        if command != .send || to == nil, detach { throw RelayctlUsageError("--detach only applies to send --to", command: name) }
        if command != .doctor, config != nil { throw RelayctlUsageError("--config only applies to doctor", command: name) }
        if command != .stats, exposition != nil {
            throw RelayctlUsageError("--openmetrics and --prometheus only apply to stats", command: name)
        }
        if exposition != nil, json { throw RelayctlUsageError("--json and a metrics format exclude each other", command: name) }
        let parsed: RelayctlCommand
        switch command {
        case .send:
            let text = words.joined(separator: " ")
            guard !text.isEmpty else { throw RelayctlUsageError("send needs the message text (it may not be empty)", command: name) }
            try checkText(text, command: name)
            if let to, to.isEmpty {
                throw RelayctlUsageError("--to needs a node: its ID, a prefix of 4 or more hex digits, or its name (see relayctl peers)", command: name)
            }
            parsed = .send(text: text, to: to, detach: detach)
        case .lookup:
            guard words.count == 1, let node = words.first, !node.isEmpty else {
                throw RelayctlUsageError("lookup needs one node: its ID, a prefix of 4 or more hex digits, or its name", command: name)
            }
            parsed = .lookup(node)
        case .cancel:
            guard words.count == 1, let message = words.first, !message.isEmpty else {
                throw RelayctlUsageError("cancel needs one message ID (or a prefix of 4 or more hex digits; relayctl mailbox lists them)", command: name)
            }
            parsed = .cancel(message)
        case .peers: parsed = .peers
        case .stats: parsed = exposition.map { .metrics($0) } ?? .stats
        case .watch: parsed = .watch
        case .status: parsed = .status
        case .id: parsed = .id
        case .mailbox:
            if let verb = words.first {
                guard verb == "drop" || verb == "cancel" else {
                    throw RelayctlUsageError("mailbox takes no arguments, or drop MESSAGE_ID", command: name)
                }
                guard words.count == 2, !words[1].isEmpty else { throw RelayctlUsageError("mailbox \(verb) needs one message ID", command: name) }
                parsed = .cancel(words[1])
            } else {
                parsed = .mailbox
            }
        case .doctor: parsed = .doctor(config: config, socket: explicitSocket)
        }
        if ![.send, .lookup, .cancel, .mailbox].contains(command), !words.isEmpty {
            throw RelayctlUsageError("\(name) takes no arguments", command: name)
        }
        return RelayctlInvocation(command: parsed, socketPath: socket, json: json)
    }

    /// Refuses message text meshnoded would refuse, before anything is sent: longer than
    /// `ChatBody.maxTextLength` (4,096) UTF-8 bytes.
    static func checkText(_ text: String, command: String) throws(RelayctlUsageError) {
        let bytes = text.utf8.count
        guard bytes <= ChatBody.maxTextLength else {
            throw RelayctlUsageError(
                "the text is \(bytes) bytes; a message holds at most \(ChatBody.maxTextLength) bytes of UTF-8 text: nothing was sent",
                command: command)
        }
    }

    /// Refuses arguments that are not valid UTF-8 (`CommandLine.arguments` would replace the bad
    /// bytes with U+FFFD and the message would go out changed); `raw` is argv after the program name.
    public static func checkEncoding(_ raw: [[UInt8]]) throws(RelayctlUsageError) {
        for (index, bytes) in raw.enumerated() where String(validating: bytes, as: UTF8.self) == nil {
            throw RelayctlUsageError(
                "argument \(index + 1) is not valid UTF-8 (check the terminal's or the script's encoding, e.g. LANG=C.UTF-8): nothing was sent")
        }
    }
}
