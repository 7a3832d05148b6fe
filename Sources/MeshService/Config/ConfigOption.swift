/// One key of meshnoded.conf: where it lives, its flag, how to read it and print it.
struct ConfigOption: Sendable {
    /// The section name, such as `udp`.
    let section: String
    /// The key within the section, such as `port` or `ttl.message`.
    let key: String
    /// A friendlier flag name without dashes (`udp-port`), if any.
    let alias: String?
    /// The placeholder shown in `--help`, such as `PORT`.
    let valueHint: String
    /// One line for `--help` and the example file.
    let summary: String
    /// Parses a value into the configuration.
    let apply: @Sendable (inout DaemonConfig, String) throws(InvalidValue) -> Void
    /// Prints the current value as the file would hold it.
    let render: @Sendable (DaemonConfig) -> String

    /// `section.key`, the canonical flag name.
    var name: String { "\(section).\(key)" }
}

/// The table of every option meshnoded understands.
enum ConfigSchema {
    /// Every section, in file order.
    static let sections = ["node", "transport", "udp", "bluez", "relay", "timers", "seen", "fragments", "hold", "budget", "links", "crypto"]

    /// Every option, in file order.
    static let options: [ConfigOption] = nodeOptions + linkOptions + engineOptions + admissionOptions

    private static let byName: [String: ConfigOption] = Dictionary(
        uniqueKeysWithValues: options.map { ($0.name, $0) })
    private static let byAlias: [String: ConfigOption] = Dictionary(
        uniqueKeysWithValues: options.compactMap { option in option.alias.map { ($0, option) } })

    /// The option for `section` and `key`.
    static func option(section: String, key: String) -> ConfigOption? { byName["\(section).\(key)"] }

    /// The option a flag names: `section.key` or a friendly alias (without the dashes).
    static func option(flag: String) -> ConfigOption? { byAlias[flag] ?? byName[flag] }
}
