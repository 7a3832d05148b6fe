import MeshProtocol

extension ConfigSchema {
    /// `[mailbox]`: mail kept for recipients who are not in range.
    static let mailboxOptions: [ConfigOption] = [
        ConfigOption(
            section: "mailbox", key: "enabled", alias: nil, valueHint: "BOOL",
            summary: "keep sealed direct messages for recipients who are not in range, and hand them over when they are back",
            apply: { config, text throws(InvalidValue) in config.mailbox.enabled = try ConfigValue.bool(text) },
            render: { String($0.mailbox.enabled) }),
        ConfigOption(
            section: "mailbox", key: "file", alias: nil, valueHint: "NAME",
            summary: "the SQLite database's file name in the state directory",
            apply: { config, text throws(InvalidValue) in
                guard !text.isEmpty, !text.contains("/"), text != ".", text != ".." else {
                    throw InvalidValue(expected: "a file name without /")
                }
                config.mailbox.file = text
            },
            render: { $0.mailbox.file }),
        mailboxDuration("retention", "how long a held message is kept", .seconds(60)...MailboxHorizon.duration, \.retention),
        mailboxCount("messages", "most messages held in all", 1...100_000, \.messages),
        mailboxCount("bytes", "most envelope bytes held in all", 65_536...268_435_456, \.bytes),
        mailboxCount("messages_per_recipient", "most messages held for one recipient", 1...100_000, \.messagesPerRecipient),
        mailboxCount("bytes_per_recipient", "most envelope bytes held for one recipient", 16_384...268_435_456, \.bytesPerRecipient),
        mailboxCount("messages_per_origin", "most messages held from one origin", 1...100_000, \.messagesPerOrigin),
        mailboxCount("messages_per_depositor", "most messages held from one neighbour that handed them over",
                     1...100_000, \.messagesPerDepositor),
        mailboxCount("bytes_per_depositor", "most envelope bytes held from one neighbour that handed them over",
                     16_384...268_435_456, \.bytesPerDepositor),
        mailboxDuration("copy_interval", "least time between two copies of one message toward a recipient heard some hops away",
                        .seconds(10)...MailboxHorizon.duration, \.copyInterval),
        mailboxDuration("reach_window", "a node heard through another node within this long counts as reachable: its mail is not kept",
                        .zero...(.seconds(3_600)), \.reachWindow),
    ]

    private static func mailboxDuration(
        _ key: String, _ summary: String, _ range: ClosedRange<Duration>, _ path: WritableKeyPath<MailboxSettings, Duration> & Sendable
    ) -> ConfigOption {
        ConfigOption(
            section: "mailbox", key: key, alias: nil, valueHint: "DURATION", summary: summary,
            apply: { config, text throws(InvalidValue) in config.mailbox[keyPath: path] = try ConfigValue.duration(text, in: range) },
            render: { ConfigValue.format($0.mailbox[keyPath: path]) })
    }

    private static func mailboxCount(
        _ key: String, _ summary: String, _ range: ClosedRange<Int>, _ path: WritableKeyPath<MailboxSettings, Int> & Sendable
    ) -> ConfigOption {
        ConfigOption(
            section: "mailbox", key: key, alias: nil, valueHint: "COUNT", summary: summary,
            apply: { config, text throws(InvalidValue) in config.mailbox[keyPath: path] = try ConfigValue.integer(text, in: range) },
            render: { String($0.mailbox[keyPath: path]) })
    }
}
