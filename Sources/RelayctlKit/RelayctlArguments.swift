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
        var wantsVersion = false
        var all = false
        var to: String?
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
            case "--version", "-V": wantsVersion = true
            case "--all", "-a": all = true
            case "--socket", "-s": explicitSocket = try value("--socket", inline: inline)
            case "--config", "-c": config = try value("--config", inline: inline)
            case "--to", "-t": to = try value("--to", inline: inline)
            case "--openmetrics": exposition = .openMetrics
            case "--prometheus": exposition = .prometheus
            default: throw RelayctlUsageError("unknown option \(parts[0])", command: command)
            }
        }
        if wantsHelp || command == helpCommand {
            let topic = command == helpCommand ? words.first : command
            return RelayctlInvocation(command: .help(topic), socketPath: socket, json: json)
        }
        if wantsVersion, command == nil { return RelayctlInvocation(command: .version, socketPath: socket, json: json) }
        guard let name = command else { throw RelayctlUsageError("missing command") }
        guard let command = ControlCommand(rawValue: name) else { throw RelayctlUsageError("unknown command '\(name)'") }
        if command != .send, to != nil { throw RelayctlUsageError("--to only applies to send", command: name) }
        if command != .doctor, config != nil { throw RelayctlUsageError("--config only applies to doctor", command: name) }
        if command != .stats, exposition != nil {
            throw RelayctlUsageError("--openmetrics and --prometheus only apply to stats", command: name)
        }
        if command != .stats, all { throw RelayctlUsageError("--all only applies to stats", command: name) }
        if wantsVersion { throw RelayctlUsageError("--version takes no command", command: name) }
        if exposition != nil, json { throw RelayctlUsageError("--json and a metrics format exclude each other", command: name) }
        let parsed: RelayctlCommand
        switch command {
        case .send:
            guard !words.isEmpty else { throw RelayctlUsageError("send needs the message text", command: name) }
            if let to, NodeID(hex: to) == nil {
                throw RelayctlUsageError("--to needs a 32-hex-digit node ID (see relayctl peers)", command: name)
            }
            parsed = .send(text: words.joined(separator: " "), to: to?.lowercased())
        case .lookup:
            guard words.count == 1, let node = words.first, NodeID(hex: node) != nil else {
                throw RelayctlUsageError("lookup needs one 32-hex-digit node ID (a short ID cannot be looked up)", command: name)
            }
            parsed = .lookup(node.lowercased())
        case .peers: parsed = .peers
        case .stats: parsed = exposition.map { .metrics($0) } ?? .stats
        case .watch: parsed = .watch
        case .status: parsed = .status
        case .id: parsed = .id
        case .mailbox: parsed = .mailbox
        case .doctor: parsed = .doctor(config: config, socket: explicitSocket)
        }
        if command == .stats, exposition != nil, !words.isEmpty || all {
            throw RelayctlUsageError("a metrics format prints every group: no group names, no --all", command: name)
        }
        if command != .send, command != .lookup, command != .stats, !words.isEmpty {
            throw RelayctlUsageError("\(name) takes no arguments", command: name)
        }
        return RelayctlInvocation(command: parsed, socketPath: socket, json: json,
                                  statsGroups: command == .stats ? words : [], statsAll: all)
    }
}
