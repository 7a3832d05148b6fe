extension ConfigSchema {
    /// `[lookup]`.
    static let lookupOptions: [ConfigOption] = [
        lookup("timeout", "how long a key lookup waits for an answer; then a message waiting for it is dropped, or kept in the mailbox database when there is one",
               .seconds(1)...(.seconds(300)), \.timeout),
        lookup("retry_interval", "a key lookup not answered after this long sends its request again",
               .milliseconds(100)...(.seconds(300)), \.retryInterval),
        lookup("answer_delay", "the longest a node holding the wanted profile waits before answering",
               .zero...(.seconds(5)), \.answerDelay),
    ]

    private static func lookup(
        _ key: String, _ summary: String, _ range: ClosedRange<Duration>, _ path: WritableKeyPath<LookupSettings, Duration> & Sendable
    ) -> ConfigOption {
        ConfigOption(
            section: "lookup", key: key, alias: nil, valueHint: "DURATION", summary: summary,
            apply: { config, text throws(InvalidValue) in config.lookup[keyPath: path] = try ConfigValue.duration(text, in: range) },
            render: { ConfigValue.format($0.lookup[keyPath: path]) })
    }
}
