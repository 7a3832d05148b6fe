/// The table of every option meshnoded understands.
enum ConfigSchema {
    /// Every section, in file order.
    static let sections = ["node", "transport", "udp", "lan", "bluez", "relay", "timers", "seen", "fragments", "hold", "budget", "lookup", "links", "crypto", "privacy", "mqtt", "mailbox"]

    /// Every option, in file order.
    static let options: [ConfigOption] = nodeOptions + linkOptions + engineOptions + admissionOptions + mqttOptions + mailboxOptions

    /// One day: the upper bound of several durations. The mailbox's are bounded by the mailbox
    /// horizon instead (`MailboxHorizon`, docs/PROTOCOL.md G4), also 24 hours but fixed by the protocol.
    static let day = Duration.seconds(86_400)

    private static let byName: [String: ConfigOption] = Dictionary(
        uniqueKeysWithValues: options.map { ($0.name, $0) })
    private static let byAlias: [String: ConfigOption] = Dictionary(
        uniqueKeysWithValues: options.compactMap { option in option.alias.map { ($0, option) } })

    /// The option for `section` and `key`.
    static func option(section: String, key: String) -> ConfigOption? { byName["\(section).\(key)"] }

    /// The option a flag names: `section.key` or a friendly alias (without the dashes).
    static func option(flag: String) -> ConfigOption? { byAlias[flag] ?? byName[flag] }
}
