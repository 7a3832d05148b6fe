extension ConfigSchema {
    /// `[mqtt]`: the bridge through an MQTT broker.
    static let mqttOptions: [ConfigOption] = [
        ConfigOption(
            section: "mqtt", key: "enabled", alias: "mqtt", valueHint: "BOOL",
            summary: "bridge this island to others through an MQTT broker (off by default)",
            apply: { config, text throws(InvalidValue) in config.mqtt.enabled = try ConfigValue.bool(text) },
            render: { $0.mqtt.enabled ? "true" : "false" }),
        ConfigOption(
            section: "mqtt", key: "host", alias: "mqtt-host", valueHint: "HOST",
            summary: "the broker's host name or address",
            apply: { config, text throws(InvalidValue) in config.mqtt.host = try ConfigValue.text(text, maxBytes: 253) },
            render: { $0.mqtt.host }),
        ConfigOption(
            section: "mqtt", key: "port", alias: "mqtt-port", valueHint: "PORT",
            summary: "the broker's TCP port (1883; 8883 with TLS)",
            apply: { config, text throws(InvalidValue) in config.mqtt.port = try ConfigValue.integer(text, in: 1...65_535) },
            render: { String($0.mqtt.port) }),
        ConfigOption(
            section: "mqtt", key: "prefix", alias: nil, valueHint: "TOPIC",
            summary: "topic prefix: levels of A-Z a-z 0-9 _ - separated by /, at most 64 characters",
            apply: { config, text throws(InvalidValue) in config.mqtt.prefix = try topicLevels(text, maxBytes: 64, oneLevel: false) },
            render: { $0.mqtt.prefix }),
        ConfigOption(
            section: "mqtt", key: "mesh", alias: "mqtt-mesh", valueHint: "NAME",
            summary: "this mesh's name on the broker: A-Z a-z 0-9 _ -, at most 32 characters",
            apply: { config, text throws(InvalidValue) in config.mqtt.mesh = try topicLevels(text, maxBytes: 32, oneLevel: true) },
            render: { $0.mqtt.mesh }),
        ConfigOption(
            section: "mqtt", key: "qos", alias: nil, valueHint: "0|1",
            summary: "QoS of broadcasts and join notices; direct messages always use 1",
            apply: { config, text throws(InvalidValue) in config.mqtt.qos = try ConfigValue.integer(text, in: 0...1) },
            render: { String($0.mqtt.qos) }),
        ConfigOption(
            section: "mqtt", key: "downlink_hops", alias: nil, valueHint: "HOPS",
            summary: "hops an envelope from the broker counts as having travelled at most; it may travel the kind's limit minus this here (0: all of it)",
            apply: { config, text throws(InvalidValue) in config.mqtt.downlinkHops = try ConfigValue.integer(text, in: 0...15) },
            render: { String($0.mqtt.downlinkHops) }),
        ConfigOption(
            section: "mqtt", key: "queue_size", alias: nil, valueHint: "COUNT",
            summary: "envelopes kept for the broker during an outage; the oldest go first",
            apply: { config, text throws(InvalidValue) in config.mqtt.queueSize = try ConfigValue.integer(text, in: 1...100_000) },
            render: { String($0.mqtt.queueSize) }),
        ConfigOption(
            section: "mqtt", key: "session_expiry", alias: nil, valueHint: "DURATION",
            summary: "how long the broker keeps this gateway's subscriptions and QoS 1 messages while it is away",
            apply: { config, text throws(InvalidValue) in
                config.mqtt.sessionExpiry = try ConfigValue.duration(text, in: .zero ... .seconds(604_800))
            },
            render: { ConfigValue.format($0.mqtt.sessionExpiry) }),
        mqttCount("gateway_messages_per_second", "envelopes per second one publishing gateway may hand this island", \.gatewayMessagesPerSecond),
        mqttCount("gateway_burst", "envelopes one publishing gateway may hand this island at once", \.gatewayBurst),
        mqttCount("total_messages_per_second", "envelopes per second all gateways together may hand this island", \.totalMessagesPerSecond),
        mqttCount("total_burst", "envelopes all gateways together may hand this island at once", \.totalBurst),
        mqttPath("ca_file", "CA certificate that vouches for the broker; TLS is on when set", \.caFile),
        mqttPath("cert_file", "this gateway's client certificate (PEM), with key_file", \.certFile),
        mqttPath("key_file", "the client certificate's private key (PEM)", \.keyFile),
        ConfigOption(
            section: "mqtt", key: "username", alias: nil, valueHint: "NAME",
            summary: "MQTT user name; empty for none",
            apply: { config, text throws(InvalidValue) in
                config.mqtt.username = text.isEmpty ? nil : try ConfigValue.text(text, maxBytes: 256)
            },
            render: { $0.mqtt.username ?? "" }),
        ConfigOption(
            section: "mqtt", key: "password_file", alias: nil, valueHint: "PATH|NAME",
            summary: "file holding the MQTT password, or a systemd credential's name (read from $CREDENTIALS_DIRECTORY)",
            apply: { config, text throws(InvalidValue) in
                if text.isEmpty {
                    config.mqtt.passwordFile = nil
                } else if text.hasPrefix("/") {
                    config.mqtt.passwordFile = try ConfigValue.absolutePath(text)
                } else {
                    config.mqtt.passwordFile = try topicLevels(text, maxBytes: 255, oneLevel: true)
                }
            },
            render: { $0.mqtt.passwordFile ?? "" }),
    ]

    private static func mqttCount(
        _ key: String, _ summary: String, _ path: WritableKeyPath<MQTTSettings, Int> & Sendable
    ) -> ConfigOption {
        ConfigOption(
            section: "mqtt", key: key, alias: nil, valueHint: "COUNT", summary: summary,
            apply: { config, text throws(InvalidValue) in config.mqtt[keyPath: path] = try ConfigValue.integer(text, in: 1...100_000) },
            render: { String($0.mqtt[keyPath: path]) })
    }

    private static func mqttPath(
        _ key: String, _ summary: String, _ path: WritableKeyPath<MQTTSettings, String?> & Sendable
    ) -> ConfigOption {
        ConfigOption(
            section: "mqtt", key: key, alias: nil, valueHint: "PATH", summary: summary + "; empty for none",
            apply: { config, text throws(InvalidValue) in
                config.mqtt[keyPath: path] = text.isEmpty ? nil : try ConfigValue.absolutePath(text)
            },
            render: { $0.mqtt[keyPath: path] ?? "" })
    }

    /// Topic levels of `A-Z a-z 0-9 _ -` (docs/PROTOCOL.md Part F), separated by `/` unless `oneLevel`.
    static func topicLevels(_ text: String, maxBytes: Int, oneLevel: Bool) throws(InvalidValue) -> String {
        let isLevelByte: (UInt8) -> Bool = { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
                || byte == 0x5F
        }
        let levels = text.split(separator: "/", omittingEmptySubsequences: false)
        guard text.utf8.count <= maxBytes, !oneLevel || levels.count == 1,
            levels.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isLevelByte) })
        else {
            throw InvalidValue(expected: oneLevel
                ? "one level of A-Z a-z 0-9 _ - (at most \(maxBytes) characters)"
                : "levels of A-Z a-z 0-9 _ - separated by / (at most \(maxBytes) characters)")
        }
        return text
    }
}
