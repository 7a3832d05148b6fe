extension ConfigSchema {
    /// `[links]`: the budget of links still without link keys, and every link's frame budget (PROTOCOL.md Part E).
    static let admissionOptions: [ConfigOption] = [
        ConfigOption(
            section: "links", key: "max_unkeyed", alias: nil, valueHint: "COUNT",
            summary: "most links without link keys at once; past it the oldest stranger's is closed, or the newcomer while that one is under 2 s old",
            apply: { config, text throws(InvalidValue) in config.links.maxUnkeyed = try ConfigValue.integer(text, in: 1...1024) },
            render: { String($0.links.maxUnkeyed) }),
        ConfigOption(
            section: "links", key: "max_unkeyed_per_address", alias: nil, valueHint: "COUNT",
            summary: "most links without link keys from one address",
            apply: { config, text throws(InvalidValue) in
                config.links.maxUnkeyedPerAddress = try ConfigValue.integer(text, in: 1...64)
            },
            render: { String($0.links.maxUnkeyedPerAddress) }),
        ConfigOption(
            section: "links", key: "key_deadline", alias: nil, valueHint: "DURATION",
            summary: "time a stranger's link has to finish its key exchange",
            apply: { config, text throws(InvalidValue) in
                config.links.keyDeadline = try ConfigValue.duration(text, in: .milliseconds(100)...(.seconds(300)))
            },
            render: { ConfigValue.format($0.links.keyDeadline) }),
        ConfigOption(
            section: "links", key: "neighbour_memory", alias: nil, valueHint: "DURATION",
            summary: "how long a keyed link's address is preferred as a returning neighbour's",
            apply: { config, text throws(InvalidValue) in
                config.links.neighbourMemory = try ConfigValue.duration(text, in: .zero...day)
            },
            render: { ConfigValue.format($0.links.neighbourMemory) }),
        ConfigOption(
            section: "links", key: "frames_per_second", alias: nil, valueHint: "COUNT",
            summary: "frames one link may hand the node a second, twice that at once, checked before its seal is opened (0: no limit)",
            apply: { config, text throws(InvalidValue) in
                config.links.framesPerSecond = try ConfigValue.integer(text, in: 0...1_000_000)
            },
            render: { String($0.links.framesPerSecond) }),
    ]
}
