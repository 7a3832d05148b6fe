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
    let apply: @Sendable (inout DaemonSettings, String) throws(InvalidValue) -> Void
    /// Prints the current value as the file would hold it.
    let render: @Sendable (DaemonSettings) -> String

    /// `section.key`, the canonical flag name.
    var name: String { "\(section).\(key)" }
}
