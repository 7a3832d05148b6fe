extension ConfigSchema {
    /// `[relay]`, `[timers]`, `[seen]`, `[fragments]` and `[crypto]`.
    static let engineOptions: [ConfigOption] = relayOptions + timerOptions + cacheOptions + holdOptions + budgetOptions + lookupOptions

    private static func ttl(
        _ key: String, _ what: String, _ range: ClosedRange<UInt8>, _ path: WritableKeyPath<RelaySettings, UInt8> & Sendable
    ) -> ConfigOption {
        ConfigOption(
            section: "relay", key: "ttl.\(key)", alias: nil, valueHint: "HOPS",
            summary: "hop limit of \(what)",
            apply: { config, text throws(InvalidValue) in config.relay[keyPath: path] = try ConfigValue.integer(text, in: range) },
            render: { String($0.relay[keyPath: path]) })
    }

    private static func duration(
        _ section: String, _ key: String, _ summary: String, _ range: ClosedRange<Duration>,
        _ path: WritableKeyPath<DaemonSettings, Duration> & Sendable
    ) -> ConfigOption {
        ConfigOption(
            section: section, key: key, alias: nil, valueHint: "DURATION", summary: summary,
            apply: { config, text throws(InvalidValue) in config[keyPath: path] = try ConfigValue.duration(text, in: range) },
            render: { ConfigValue.format($0[keyPath: path]) })
    }

    private static func count(
        _ section: String, _ key: String, _ summary: String, _ range: ClosedRange<Int>,
        _ path: WritableKeyPath<DaemonSettings, Int> & Sendable
    ) -> ConfigOption {
        ConfigOption(
            section: section, key: key, alias: nil, valueHint: "COUNT", summary: summary,
            apply: { config, text throws(InvalidValue) in config[keyPath: path] = try ConfigValue.integer(text, in: range) },
            render: { String($0[keyPath: path]) })
    }

    private static let relayOptions: [ConfigOption] = [
        ttl("message", "chat messages", 0...16, \.ttlMessage),
        ttl("join", "join notices", 0...16, \.ttlJoin),
        ttl("key_request", "key requests (how far a lookup looks)", 0...16, \.ttlKeyRequest),
        ttl("key_answer", "key answers (how far an answer travels back)", 0...16, \.ttlKeyAnswer),
        ConfigOption(
            section: "relay", key: "scheduler", alias: nil, valueHint: "managed|plain",
            summary: "managed flooding (fewer relays where the mesh is dense) or plain RelayChat flooding",
            apply: { config, text throws(InvalidValue) in config.relay.scheduler = try ConfigValue.choice(text, of: RelaySchedulerKind.self) },
            render: { $0.relay.scheduler.rawValue }),
        duration("relay", "managed.slot", "managed flooding: relay window per ready neighbour",
                 .zero...(.seconds(1)), \.relay.managedSlot),
        duration("relay", "managed.max_window", "managed flooding: the longest a relay is held",
                 .zero...(.seconds(5)), \.relay.managedMaxWindow),
        count("relay", "managed.cancel_after", "managed flooding: cancel a relay after this many neighbours relayed it (0: never)",
              0...64, \.relay.managedCancelAfter),
        count("relay", "managed.coverage", "managed flooding: skip a neighbour once this many relaying nodes are known linked to it",
              1...16, \.relay.managedCoverage),
    ]

    private static let timerOptions: [ConfigOption] = [
        duration("timers", "heartbeat_interval", "heartbeat period to each neighbour",
                 .seconds(1)...(.seconds(3600)), \.timers.heartbeatInterval),
        duration("timers", "departure_grace", "silence after which a neighbour counts as gone",
                 .seconds(1)...day, \.timers.departureGrace),
        duration("timers", "handshake_timeout", "time a new link has to finish its key exchange",
                 .milliseconds(100)...(.seconds(300)), \.timers.handshakeTimeout),
        duration("timers", "rekey_interval", "link key lifetime",
                 .seconds(60)...(day * 7), \.timers.rekeyInterval),
    ]

    private static let holdOptions: [ConfigOption] = [
        count("hold", "messages", "most messages held for one neighbour whose link is down (0: hold nothing)",
              0...4096, \.hold.messages),
        count("hold", "bytes", "most bytes held for one neighbour whose link is down",
              0...4_194_304, \.hold.bytes),
        count("hold", "total_bytes", "most bytes held for all neighbours together",
              0...67_108_864, \.hold.totalBytes),
        duration("hold", "max_age", "how long a held message may wait for its neighbour's link",
                 .zero...(.seconds(600)), \.hold.maxAge),
        duration("hold", "resend_window", "messages sent this shortly before a link went down are sent again",
                 .zero...(.seconds(60)), \.hold.resendWindow),
    ]

    private static let cacheOptions: [ConfigOption] = [
        count("seen", "capacity", "most message IDs remembered, and the 32-byte slots of seen.journal", 1024...1_048_576, \.seen.capacity),
        duration("seen", "expiry", "how long a message ID is remembered",
                 .seconds(10)...day, \.seen.expiry),
        duration("seen", "max_clock_skew",
                 "clock error tolerated between a message's origin and this node (signed timestamps)",
                 .seconds(1)...(.seconds(3600)), \.seen.maxClockSkew),
        ConfigOption(
            section: "seen", key: "check_timestamps", alias: nil, valueHint: "BOOL",
            summary: "refuse messages older than the seen cache can vouch for (judged on mesh time, so a wrong clock is fine)",
            apply: { config, text throws(InvalidValue) in config.seen.checkTimestamps = try ConfigValue.bool(text) },
            render: { String($0.seen.checkTimestamps) }),
        duration("fragments", "timeout", "how long a partial message waits for its next fragment",
                 .milliseconds(100)...(.seconds(300)), \.fragments.timeout),
        count("fragments", "max_message", "largest reassembled message in bytes",
              1024...1_048_576, \.fragments.maxMessage),
        count("fragments", "max_transfers_per_link", "most partial messages at once per link",
              1...1024, \.fragments.maxTransfersPerLink),
        ConfigOption(
            section: "crypto", key: "padding", alias: nil, valueHint: "BOOL",
            summary: "pad sealed payloads to hide their length",
            apply: { config, text throws(InvalidValue) in config.crypto.padding = try ConfigValue.bool(text) },
            render: { String($0.crypto.padding) }),
        ConfigOption(
            section: "crypto", key: "key_exchange", alias: nil, valueHint: "private_first|private_only",
            summary: "private_only refuses neighbours that speak only key exchange version 1 (identities in clear)",
            apply: { config, text throws(InvalidValue) in config.crypto.keyExchange = try ConfigValue.choice(text, of: KeyExchangeSetting.self) },
            render: { $0.crypto.keyExchange.rawValue }),
        ConfigOption(
            section: "privacy", key: "cover_interval", alias: nil, valueHint: "DURATION",
            summary: "mean time between cover packets on each opaque link, 0 for none (at least 1s)",
            apply: { config, text throws(InvalidValue) in
                let interval = try ConfigValue.duration(text, in: .zero...(.seconds(3600)))
                guard interval == .zero || interval >= PrivacySettings.coverFloor else {
                    throw InvalidValue(expected: "0s, or a duration in 1s...1h")
                }
                config.privacy.coverInterval = interval
            },
            render: { ConfigValue.format($0.privacy.coverInterval) }),
    ]
}
