extension ConfigSchema {
    /// `[budget]`: per-neighbour relay shares and the signature-check budget.
    static let budgetOptions: [ConfigOption] = [
        budget("messages_per_second", "messages and join notices one upstream at a neighbour may hand us per second",
               1...100_000, \.messagesPerSecond),
        budget("message_burst", "messages one upstream at a neighbour may hand us at once after a quiet spell",
               1...100_000, \.messageBurst),
        budget("bytes_per_second", "payload bytes one upstream at a neighbour may hand us per second",
               1024...104_857_600, \.bytesPerSecond),
        budget("byte_burst", "payload bytes one upstream at a neighbour may hand us at once (at least one whole message)",
               65_536...104_857_600, \.byteBurst),
        budget("verifications_per_second", "signature checks per second, all neighbours together",
               1...1_000_000, \.verificationsPerSecond),
        budget("verification_burst", "signature checks that may be saved up",
               1...1_000_000, \.verificationBurst),
    ]

    private static func budget(
        _ key: String, _ summary: String, _ range: ClosedRange<Int>, _ path: WritableKeyPath<BudgetSettings, Int> & Sendable
    ) -> ConfigOption {
        ConfigOption(
            section: "budget", key: key, alias: nil, valueHint: "COUNT", summary: summary,
            apply: { config, text throws(InvalidValue) in config.budget[keyPath: path] = try ConfigValue.integer(text, in: range) },
            render: { String($0.budget[keyPath: path]) })
    }
}
