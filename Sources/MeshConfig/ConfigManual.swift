/// The options part of meshnoded.conf(5), generated from the same table as `meshnoded --help`.
///
/// man/meshnoded.conf.5 holds this text between `ConfigManual.begin` and `ConfigManual.end`;
/// `ManPageTests` fails when the two differ, so an option added to the table without a man page
/// entry fails the tests (`MESHNODE_UPDATE_MAN=1 swift test --filter ManPageTests` rewrites it).
public enum ConfigManual {
    /// The comment line before the generated part.
    public static let begin = #".\" BEGIN OPTIONS: generated from the option table, see ConfigManual.swift"#
    /// The comment line after it.
    public static let end = #".\" END OPTIONS"#

    /// One `.SS` per section, one `.TP` entry per option: key, value, summary, default and flags.
    public static var roff: String {
        let defaults = DaemonSettings()
        var lines: [String] = []
        for section in ConfigSchema.sections {
            let options = ConfigSchema.options.filter { $0.section == section }
            guard !options.isEmpty else { continue }
            lines.append(".SS [\(section)]")
            for option in options {
                lines.append(".TP")
                lines.append(entry(option))
                lines.append(escaped(sentence(option.summary)))
                let current = option.render(defaults)
                lines.append("Default: " + (current.isEmpty ? "empty." : #"\fB"# + escaped(current) + #"\fR."#))
                var flags = #"Flag: \fB\-\-"# + escaped(option.name) + #"\fR"#
                if let alias = option.alias { flags += #" or \fB\-\-"# + escaped(alias) + #"\fR"# }
                lines.append(flags + ".")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe in a roff line: backslashes doubled as `\e`, dashes as `\-` where they are
    /// options, a leading dot or quote guarded with `\&`.
    static func escaped(_ text: String) -> String {
        var result = text.replacingAll("\\", with: #"\e"#)
        if result.hasPrefix(".") || result.hasPrefix("'") { result = #"\&"# + result }
        return result.replacingAll("-", with: #"\-"#)
    }

    /// The tag line of an option: `\fBkey\fR = \fIHINT\fR`.
    static func entry(_ option: ConfigOption) -> String {
        #"\fB"# + escaped(option.key) + #"\fR = \fI"# + escaped(option.valueHint) + #"\fR"#
    }

    /// The summary ending with a full stop (its first word may be a value, such as `udp`, so
    /// it keeps its case).
    static func sentence(_ summary: String) -> String {
        summary.hasSuffix(".") ? summary : summary + "."
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation needed).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
