/// The table of every option meshnoded understands.
enum ConfigSchema {
    /// Every section, in file order.


    /// Every option, in file order.

    static let sections = ["node", "transport", "udp", "bluez", "relay", "timers", "seen", "fragments", "hold", "budget", "lookup", "links", "crypto", "mqtt", "mailbox"]

    /// Every option, in file order.
    static let options: [ConfigOption] = nodeOptions + linkOptions + engineOptions + admissionOptions + mqttOptions + mailboxOptions

    private static let byName: [String: ConfigOption] = Dictionary(
        uniqueKeysWithValues: options.map { ($0.name, $0) })
    private static let byAlias: [String: ConfigOption] = Dictionary(
        uniqueKeysWithValues: options.compactMap { option in option.alias.map { ($0, option) } })

    /// The option for `section` and `key`.
    static func option(section: String, key: String) -> ConfigOption? { byName["\(section).\(key)"] }

    /// The option a flag names: `section.key` or a friendly alias (without the dashes).
    static func option(flag: String) -> ConfigOption? { byAlias[flag] ?? byName[flag] }
}
