import MeshLink

extension ConfigSchema {
    /// `[udp]`, `[lan]` and `[bluez]`.
    static let linkOptions: [ConfigOption] = udpOptions(.udp) + udpOptions(.lan) + bluezOptions

    /// The keys of `[udp]`, or of `[lan]` (which has no flag aliases and calls its neighbours `peers`).
    private static func udpOptions(_ family: UDPSection) -> [ConfigOption] {
        let section = family.rawValue
        let udp = family == .udp
        let interface = ConfigOption(
            section: section, key: "interface", alias: nil, valueHint: "IFNAME",
            summary: "network interface to run on: bound on IPv4 and IPv6, only its subnet and link-local addresses are heard, peers lie there (empty: loopback)",
            apply: { config, text throws(InvalidValue) in config[family].interface = try interfaceName(text) },
            render: { $0[family].interface })
        let discovery = ConfigOption(
            section: section, key: "discovery", alias: nil, valueHint: "BOOL",
            summary: "with an interface: find peers by link-local multicast ([ff02::114]:7100, else 224.0.0.254:7100) besides the configured ones",
            apply: { config, text throws(InvalidValue) in config[family].discovery = try ConfigValue.bool(text) },
            render: { $0[family].discovery ? "on" : "off" })
        return (udp ? [] : [interface, discovery]) + [
            ConfigOption(
                section: section, key: "bind", alias: udp ? "udp-bind" : nil, valueHint: "ADDRESS",
                summary: "loopback address to bind: 127.0.0.0/8 or ::1",
                apply: { config, text throws(InvalidValue) in
                    guard let endpoint = try? UDPEndpoint(host: text, port: 1) else {
                        throw InvalidValue(expected: "a loopback address (127.0.0.0/8 or ::1)")
                    }
                    config[family].bind = endpoint.host
                },
                render: { $0[family].bind }),
            ConfigOption(
                section: section, key: "port", alias: udp ? "udp-port" : nil, valueHint: "PORT",
                summary: "UDP port to bind",
                apply: { config, text throws(InvalidValue) in config[family].port = try ConfigValue.integer(text, in: 1...65535) },
                render: { String($0[family].port) }),
            ConfigOption(
                section: section, key: udp ? "neighbours" : "peers", alias: udp ? "neighbours" : nil, valueHint: "HOST:PORT,...",
                summary: udp ? "loopback ports this node connects to as central, comma-separated"
                    : "addresses this node connects to as central, comma-separated: loopback, or on the interface's subnet or link-local",
                apply: { config, text throws(InvalidValue) in
                    var endpoints: [UDPEndpoint] = []
                    for item in ConfigValue.list(text) {
                        guard let endpoint = try? UDPEndpoint(parsing: item, anyUnicast: !udp) else {
                            throw InvalidValue(expected: udp
                                ? "loopback host:port items such as 127.0.0.1:7002 or [::1]:7002"
                                : "host:port items such as 192.168.1.20:7101, [fe80::1]:7101, 127.0.0.1:7101 or [::1]:7101")
                        }
                        if !endpoints.contains(endpoint) { endpoints.append(endpoint) }
                    }
                    guard endpoints.count <= 64 else { throw InvalidValue(expected: "at most 64 neighbours") }
                    config[family].neighbours = endpoints
                },
                render: { $0[family].neighbours.map(\.description).joined(separator: ", ") }),
            ConfigOption(
                section: section, key: "mtu", alias: udp ? "mtu" : nil, valueHint: "BYTES",
                summary: "largest frame offered on a link (the smaller end wins)",
                apply: { config, text throws(InvalidValue) in config[family].mtu = try ConfigValue.integer(text, in: LinkInfo.frameSizes) },
                render: { String($0[family].mtu) }),
            ConfigOption(
                section: section, key: "loss", alias: udp ? "loss" : nil, valueHint: "FRACTION",
                summary: "fraction of frames dropped on send, for tests",
                apply: { config, text throws(InvalidValue) in config[family].loss = try ConfigValue.fraction(text, in: 0...1) },
                render: { String($0[family].loss) }),
            ConfigOption(
                section: section, key: "keepalive_interval", alias: nil, valueHint: "DURATION",
                summary: "keepalive period on each link",
                apply: { config, text throws(InvalidValue) in
                    config[family].keepaliveInterval = try ConfigValue.duration(text, in: .milliseconds(10)...(.seconds(60)))
                },
                render: { ConfigValue.format($0[family].keepaliveInterval) }),
            ConfigOption(
                section: section, key: "link_timeout", alias: nil, valueHint: "DURATION",
                summary: "silence after which a link is declared down",
                apply: { config, text throws(InvalidValue) in
                    config[family].linkTimeout = try ConfigValue.duration(text, in: .milliseconds(30)...(.seconds(600)))
                },
                render: { ConfigValue.format($0[family].linkTimeout) }),
            ConfigOption(
                section: section, key: "connect_interval", alias: nil, valueHint: "DURATION",
                summary: "how often a central retries a neighbour",
                apply: { config, text throws(InvalidValue) in
                    config[family].connectInterval = try ConfigValue.duration(text, in: .milliseconds(10)...(.seconds(60)))
                },
                render: { ConfigValue.format($0[family].connectInterval) }),
            ConfigOption(
                section: section, key: "max_links", alias: nil, valueHint: "COUNT",
                summary: "most links at once, both roles together",
                apply: { config, text throws(InvalidValue) in config[family].maxLinks = try ConfigValue.integer(text, in: 1...1024) },
                render: { String($0[family].maxLinks) }),
        ]
    }

    private static let bluezOptions: [ConfigOption] = [
        ConfigOption(
            section: "bluez", key: "adapter", alias: "adapter", valueHint: "HCI",
            summary: "BlueZ adapter, such as hci0",
            apply: { config, text throws(InvalidValue) in
                guard text.hasPrefix("hci"), text.count <= 6, let _ = UInt8(text.dropFirst(3)) else {
                    throw InvalidValue(expected: "an adapter name such as hci0")
                }
                config.bluez.adapter = text
            },
            render: { $0.bluez.adapter }),
        ConfigOption(
            section: "bluez", key: "service_uuid", alias: nil, valueHint: "UUID",
            summary: "GATT service UUID of the mesh",
            apply: { config, text throws(InvalidValue) in config.bluez.serviceUUID = try uuid(text) },
            render: { $0.bluez.serviceUUID }),
        ConfigOption(
            section: "bluez", key: "allow", alias: "allow", valueHint: "LIST",
            summary: "if set, link only these BLE addresses or node IDs",
            apply: { config, text throws(InvalidValue) in config.bluez.allow = try filters(text) },
            render: { $0.bluez.allow.map(\.description).joined(separator: ", ") }),
        ConfigOption(
            section: "bluez", key: "deny", alias: "deny", valueHint: "LIST",
            summary: "never link these BLE addresses or node IDs",
            apply: { config, text throws(InvalidValue) in config.bluez.deny = try filters(text) },
            render: { $0.bluez.deny.map(\.description).joined(separator: ", ") }),
        ConfigOption(
            section: "bluez", key: "max_connections", alias: "max-connections", valueHint: "COUNT",
            summary: "most BLE connections at once, both roles together",
            apply: { config, text throws(InvalidValue) in
                config.bluez.maxConnections = try ConfigValue.integer(text, in: 1...32)
            },
            render: { String($0.bluez.maxConnections) }),
        ConfigOption(
            section: "bluez", key: "gatt_server", alias: "gatt-server", valueHint: "BOOL",
            summary: "host the mesh GATT service and advertise; no = a client that only dials and gets notifications",
            apply: { config, text throws(InvalidValue) in config.bluez.gattServer = try ConfigValue.bool(text) },
            render: { String($0.bluez.gattServer) }),
        ConfigOption(
            section: "bluez", key: "client_slots", alias: "client-slots", valueHint: "COUNT",
            summary: "clients without a GATT server served at once, one notify characteristic each (0 to 16)",
            apply: { config, text throws(InvalidValue) in
                config.bluez.clientSlots = try ConfigValue.integer(text, in: 0...ClientSlotLimits.maxCount)
            },
            render: { String($0.bluez.clientSlots) }),
        ConfigOption(
            section: "bluez", key: "rotate_address", alias: "rotate-address", valueHint: "auto|on|off",
            summary: "power the adapter off and on when the advertised name changes, for a new private address (auto: when main.conf sets Privacy)",
            apply: { config, text throws(InvalidValue) in
                config.bluez.rotateAddress = try ConfigValue.choice(text, of: AddressRotationSetting.self)
            },
            render: { $0.bluez.rotateAddress.rawValue }),
    ]

    private static func uuid(_ text: String) throws(InvalidValue) -> String {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy({ $0.allSatisfy(\.isHexDigit) }) else {
            throw InvalidValue(expected: "a 128-bit UUID such as 8f2c0001-5e1a-4c7b-9d3e-6d657368ee01")
        }
        return text.lowercased()
    }

    private static func filters(_ text: String) throws(InvalidValue) -> [PeerFilter] {
        let items = ConfigValue.list(text)
        guard items.count <= 256 else { throw InvalidValue(expected: "at most 256 entries") }
        var result: [PeerFilter] = []
        for item in items {
            guard let filter = PeerFilter(parsing: item) else {
                throw InvalidValue(expected: "BLE addresses (AA:BB:CC:DD:EE:FF) or 32-hex-digit node IDs")
            }
            result.append(filter)
        }
        return result
    }

    /// A network interface name: 1 to 15 of `A-Za-z0-9._-` (the kernel's IFNAMSIZ less its NUL), or empty.
    static func interfaceName(_ text: String) throws(InvalidValue) -> String {
        let allowed: (UInt8) -> Bool = { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
        guard text.utf8.count <= 15, text.utf8.allSatisfy(allowed), text != ".", text != ".." else {
            throw InvalidValue(expected: "an interface name such as eth0 (at most 15 of A-Z, a-z, 0-9, '.', '_', '-'), or nothing")
        }
        return text
    }
}
