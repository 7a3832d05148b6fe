/// Parses meshnoded's command line: `--section.key=VALUE`, friendly aliases, `--config PATH`.
public enum DaemonCommandLine {
    /// Parses the arguments after the program name.
    public static func parse(_ arguments: [String]) throws(ConfigError) -> DaemonInvocation {
        var invocation = DaemonInvocation()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let bad = { (detail: String) in ConfigError(file: argument, line: nil, problem: .badFlag(detail)) }
            guard argument.hasPrefix("-") else { throw bad("unexpected argument; settings are flags like --udp-port=7001") }
            switch argument {
            case "-h", "--help": invocation.action = .help; continue
            case "--version": invocation.action = .version; continue
            case "--check-config": invocation.action = .checkConfig; continue
            case "--print-config": invocation.action = .printConfig; continue
            default: break
            }
            let body = argument.hasPrefix("--") ? argument.dropFirst(2) : argument.dropFirst(1)
            let equals = body.firstIndex(of: "=")
            let name = String(body[..<(equals ?? body.endIndex)])
            let isConfig = name == "config" || name == "c"
            // The name is judged before its value: `--frob` is an unknown option, not one missing a value.
            let option = argument.hasPrefix("--") ? ConfigSchema.option(flag: name) : nil
            guard isConfig || option != nil else { throw bad("unknown option; see meshnoded --help") }
            let value: String
            if let equals {
                value = String(body[body.index(after: equals)...])
            } else {
                guard index < arguments.count else { throw bad("missing value") }
                value = arguments[index]
                index += 1
            }
            if isConfig {
                guard !value.isEmpty else { throw bad("missing path") }
                invocation.configPath = value
                invocation.configPathGiven = true
                continue
            }
            guard let option else { throw bad("unknown option; see meshnoded --help") }
            let flag = "--" + name
            invocation.overrides.append(ConfigOverride(flag: flag, section: option.section, key: option.key, value: value))
        }
        return invocation
    }

    /// The `meshnoded --help` text, generated from the option table.
    public static var helpText: String {
        var lines = [
            "Usage: meshnoded [--config PATH] [--SECTION.KEY=VALUE ...] [--check-config | --print-config]",
            "",
            "Runs a MeshNode relay. Settings come from the defaults, then the configuration file",
            "(default \(ConfigLoader.defaultPath); a missing default file is fine), then the",
            "flags below, later ones winning. Every flag takes '--flag=VALUE' or '--flag VALUE'.",
            "Durations are written 500ms, 10s, 2m or 1h; lists are comma-separated.",
            "",
            "  -c, --config PATH      configuration file (must exist when given)",
            "      --check-config     validate the configuration, print 'configuration OK', exit",
            "      --print-config     print the effective configuration, exit",
            "      --version          print the version, exit",
            "  -h, --help             print this text, exit",
        ]
        let defaults = DaemonSettings()
        for section in ConfigSchema.sections {
            lines.append("")
            lines.append("[\(section)]")
            for option in ConfigSchema.options where option.section == section {
                var flag = "--\(option.name)=\(option.valueHint)"
                if let alias = option.alias { flag += ", --\(alias)" }
                lines.append("  \(flag)")
                let current = option.render(defaults)
                lines.append("        \(option.summary) [default: \(current.isEmpty ? "none" : current)]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
