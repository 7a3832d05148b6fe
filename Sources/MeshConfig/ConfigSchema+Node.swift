import ControlProtocol
import MeshProtocol

extension ConfigSchema {
    /// `[node]` and `[transport]`.
    static let nodeOptions: [ConfigOption] = [
        ConfigOption(
            section: "node", key: "name", alias: "name", valueHint: "TEXT",
            summary: "display name other nodes show (1-\(Profile.maxNameLength) bytes)",
            apply: { config, text throws(InvalidValue) in
                config.node.name = try ConfigValue.text(text, maxBytes: Profile.maxNameLength)
            },
            render: { $0.node.name }),
        ConfigOption(
            section: "node", key: "icon", alias: "icon", valueHint: "EMOJI",
            summary: "one-emoji icon other nodes show (1-\(Profile.maxIconLength) bytes)",
            apply: { config, text throws(InvalidValue) in
                config.node.icon = try ConfigValue.text(text, maxBytes: Profile.maxIconLength)
            },
            render: { $0.node.icon }),
        ConfigOption(
            section: "node", key: "state_directory", alias: "state-directory", valueHint: "DIR",
            summary: "directory for the identity keys",
            apply: { config, text throws(InvalidValue) in
                config.node.stateDirectory = try ConfigValue.absolutePath(text)
            },
            render: { $0.node.stateDirectory }),
        ConfigOption(
            section: "node", key: "runtime_directory", alias: "runtime-directory", valueHint: "DIR",
            summary: "directory for the control socket",
            apply: { config, text throws(InvalidValue) in
                config.node.runtimeDirectory = try ConfigValue.absolutePath(text)
            },
            render: { $0.node.runtimeDirectory }),
        ConfigOption(
            section: "node", key: "control_socket", alias: "control-socket", valueHint: "PATH",
            summary: "control socket path; empty means RUNTIME_DIRECTORY/" + ControlSocketDefaults.fileName,
            apply: { config, text throws(InvalidValue) in
                config.node.controlSocketOverride = text.isEmpty
                    ? nil : try ConfigValue.absolutePath(text, maxBytes: UnixSocketAddress.maxPathBytes)
            },
            render: { $0.node.controlSocketOverride ?? "" }),
        ConfigOption(
            section: "node", key: "control_group", alias: "control-group", valueHint: "GROUP",
            summary: "group allowed to use the control socket",
            apply: { config, text throws(InvalidValue) in config.node.controlGroup = try groupName(text) },
            render: { $0.node.controlGroup }),
        ConfigOption(
            section: "node", key: "log_level", alias: "log-level", valueHint: "LEVEL",
            summary: "least severe level logged: debug, info, notice, warning or error",
            apply: { config, text throws(InvalidValue) in
                config.node.logLevel = try ConfigValue.choice(text, of: LogLevel.self)
            },
            render: { $0.node.logLevel.rawValue }),
        ConfigOption(
            section: "transport", key: "kind", alias: "transport", valueHint: "KIND,...",
            summary: "bluez (Bluetooth LE), udp (loopback tests and local meshes), lan (a second UDP port, [lan]), or several comma-separated, all run at once",
            apply: { config, text throws(InvalidValue) in config.transport.kinds = try TransportSettings.kinds(text) },
            render: { $0.transport.kinds.map(\.rawValue).joined(separator: ", ") }),
    ]

    /// A POSIX group name: a lowercase letter or `_`, then up to 31 of `a-z0-9_-`.
    static func groupName(_ text: String) throws(InvalidValue) -> String {
        let bytes = Array(text.utf8)
        let isStart: (UInt8) -> Bool = { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") }
        let isRest: (UInt8) -> Bool = {
            isStart($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-")
        }
        guard let first = bytes.first, isStart(first), bytes.count <= 32, bytes.dropFirst().allSatisfy(isRest) else {
            throw InvalidValue(expected: "a group name (lowercase letters, digits, '_' or '-', at most 32)")
        }
        return text
    }
}
