import ControlProtocol
import MeshLink
import MeshTestSupport
import Testing
@testable import MeshConfig

@Suite("meshnoded.conf parsing")
struct ConfigFileTests {
    /// One file and the exact error it must produce (nil: it must load).
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let error: String?
        var testDescription: String { error ?? "valid: \(text.prefix(40))" }
    }

    static let cases: [Case] = [
        Case(text: "[relay]\nttl.message = 5\n", error: nil),
        Case(text: "# comment\n\n[udp]\nport=7002\n  # indented comment\n", error: nil),
        Case(text: "[relay]\n\n\n\n\n\n\n\n\n\n\nttl.mesage = 3\n", error: "meshnoded.conf:12: unknown key 'ttl.mesage' in [relay]"),
        Case(text: "[nodes]\n", error: "meshnoded.conf:1: unknown section [nodes]"),
        Case(text: "name = x\n", error: "meshnoded.conf:1: key 'name' before any [section]"),
        Case(text: "[udp]\nport = 7001\nport = 7002\n", error: "meshnoded.conf:3: key 'port' in [udp] already set on line 2"),
        Case(text: "[udp]\nport = 70000\n", error: "meshnoded.conf:2: invalid value '70000' for 'port' in [udp]: expected an integer in 1...65535"),
        Case(text: "[udp]\nport = 7001 # main\n", error: "meshnoded.conf:2: invalid value '7001 # main' for 'port' in [udp]: expected an integer in 1...65535"),
        Case(text: "[udp]\nneighbours = 192.168.1.2:7002\n",
             error: "meshnoded.conf:2: invalid value '192.168.1.2:7002' for 'neighbours' in [udp]: expected loopback host:port items such as 127.0.0.1:7002 or [::1]:7002"),
        Case(text: "[udp]\nbind = 10.0.0.1\n",
             error: "meshnoded.conf:2: invalid value '10.0.0.1' for 'bind' in [udp]: expected a loopback address (127.0.0.0/8 or ::1)"),
        Case(text: "[udp]\nmtu = 19\n", error: "meshnoded.conf:2: invalid value '19' for 'mtu' in [udp]: expected an integer in 20...510"),
        Case(text: "[udp]\nmtu = 511\n", error: "meshnoded.conf:2: invalid value '511' for 'mtu' in [udp]: expected an integer in 20...510"),
        Case(text: "[udp]\nloss = 1.5\n", error: "meshnoded.conf:2: invalid value '1.5' for 'loss' in [udp]: expected a number in 0.0...1.0"),
        Case(text: "[timers]\nheartbeat_interval = 10\n",
             error: "meshnoded.conf:2: invalid value '10' for 'heartbeat_interval' in [timers]: expected a duration like 500ms, 10s, 2m or 1h in 1s...1h"),
        Case(text: "[node]\nlog_level = loud\n",
             error: "meshnoded.conf:2: invalid value 'loud' for 'log_level' in [node]: expected one of debug, info, notice, warning, error"),
        Case(text: "[transport]\nkind = serial\n",
             error: "meshnoded.conf:2: invalid value 'serial' for 'kind' in [transport]: expected transports among udp, lan, bluez, comma-separated ('serial' is none of them)"),
        Case(text: "[transport]\nkind = bluez, udp, bluez\n",
             error: "meshnoded.conf:2: invalid value 'bluez, udp, bluez' for 'kind' in [transport]: expected each transport at most once ('bluez' is listed twice)"),
        Case(text: "[transport]\nkind = ,\n",
             error: "meshnoded.conf:2: invalid value ',' for 'kind' in [transport]: expected one or more of udp, lan, bluez, comma-separated"),
        Case(text: "[transport]\nkind = udp, lan\n[lan]\nport = 7001\n",
             error: "meshnoded.conf: transport = udp,lan: [udp] and [lan] both bind 127.0.0.1:7001; give them different ports"),
        Case(text: "[transport]\nkind = udp, lan\n[lan]\npeers = 127.0.0.1:7001\n",
             error: "meshnoded.conf: transport = udp,lan: one section dials the other's own address 127.0.0.1:7001"),
        Case(text: "[transport]\nkind = udp\n[lan]\nport = 7001\n", error: nil),
        Case(text: "[lan]\ninterface = eth0\npeers = 192.168.1.20:7101, 10.0.0.7:7101\n", error: nil),
        Case(text: "[lan]\ninterface = eth0\npeers = [fe80::2]:7101, [fe80::3%lo]:7101, 192.168.1.20:7101\n", error: nil),
        Case(text: "[lan]\ninterface = eth0\npeers = [2001:db8::2]:7101\n",
             error: "meshnoded.conf:3: invalid value '[2001:db8::2]:7101' for 'peers' in [lan]: expected host:port items such as 192.168.1.20:7101, [fe80::1]:7101, 127.0.0.1:7101 or [::1]:7101"),
        Case(text: "[lan]\npeers = 192.168.1.20:7101\n",
             error: "meshnoded.conf: [lan] peer 192.168.1.20:7101 is not loopback; set [lan] interface to reach a LAN"),
        Case(text: "[lan]\ninterface = eth0\npeers = [::1]:7101\n",
             error: "meshnoded.conf: [lan] peer [::1]:7101 is neither IPv4 nor IPv6 link-local, as [lan] interface needs"),
        Case(text: "[lan]\ninterface = eth0\ndiscovery = off\n", error: nil),
        Case(text: "[lan]\ndiscovery = sometimes\n",
             error: "meshnoded.conf:2: invalid value 'sometimes' for 'discovery' in [lan]: expected true or false"),
        Case(text: "[udp]\ndiscovery = on\n", error: "meshnoded.conf:2: unknown key 'discovery' in [udp]"),
        Case(text: "[lan]\ninterface = eth0/1\n",
             error: "meshnoded.conf:2: invalid value 'eth0/1' for 'interface' in [lan]: expected an interface name such as eth0 (at most 15 of A-Z, a-z, 0-9, '.', '_', '-'), or nothing"),
        Case(text: "[lan]\npeers = 224.0.0.251:7101\n",
             error: "meshnoded.conf:2: invalid value '224.0.0.251:7101' for 'peers' in [lan]: expected host:port items such as 192.168.1.20:7101, [fe80::1]:7101, 127.0.0.1:7101 or [::1]:7101"),
        Case(text: "[udp]\nneighbours = 192.168.1.20:7001\n",
             error: "meshnoded.conf:2: invalid value '192.168.1.20:7001' for 'neighbours' in [udp]: expected loopback host:port items such as 127.0.0.1:7002 or [::1]:7002"),
        Case(text: "[lan]\nport = 7101\npeers = 127.0.0.1:7101\n",
             error: "meshnoded.conf: [lan] peers lists this node's own address 127.0.0.1:7101"),
        Case(text: "[crypto]\npadding = maybe\n", error: "meshnoded.conf:2: invalid value 'maybe' for 'padding' in [crypto]: expected true or false"),
        Case(text: "[node]\nstate_directory = var/lib\n",
             error: "meshnoded.conf:2: invalid value 'var/lib' for 'state_directory' in [node]: expected an absolute path of at most 4096 bytes"),
        Case(text: "[bluez]\ndeny = AA:BB:CC:DD:EE\n",
             error: "meshnoded.conf:2: invalid value 'AA:BB:CC:DD:EE' for 'deny' in [bluez]: expected BLE addresses (AA:BB:CC:DD:EE:FF) or 32-hex-digit node IDs"),
        Case(text: "[udp\n", error: "meshnoded.conf:1: syntax error: unclosed section header"),
        Case(text: "[udp]\njust words\n", error: "meshnoded.conf:2: syntax error: expected 'key = value', '[section]' or '# comment'"),
        Case(text: "[udp]\n= 5\n", error: "meshnoded.conf:2: syntax error: missing key before '='"),
        Case(text: "[udp]\nPort = 5\n", error: "meshnoded.conf:2: syntax error: bad key 'Port'"),
        Case(text: "[timers]\nheartbeat_interval = 30s\ndeparture_grace = 20s\n",
             error: "meshnoded.conf: [timers] departure_grace must be longer than heartbeat_interval"),
        Case(text: "[udp]\nport = 7001\nneighbours = 127.0.0.1:7001\n",
             error: "meshnoded.conf: [udp] neighbours lists this node's own address 127.0.0.1:7001"),
        Case(text: "[udp]\nneighbours = [::1]:7002\n",
             error: "meshnoded.conf: [udp] neighbour [::1]:7002 is not in the address family of bind = 127.0.0.1"),
        Case(text: "[node]\nruntime_directory = /" + String(repeating: "r", count: 100) + "\n",
             error: "meshnoded.conf: control socket path '/" + String(repeating: "r", count: 100) + "/control.sock' is longer than 107 bytes"),
    ]

    @Test("good and bad files give file:line:reason", arguments: cases)
    func table(_ testCase: Case) {
        do {
            _ = try ConfigLoader.parse(testCase.text, file: "meshnoded.conf")
            #expect(testCase.error == nil, "expected \(testCase.error ?? "")")
        } catch {
            #expect(error.description == testCase.error)
        }
    }

    @Test("A transport list runs in the order given, one port each; one name means what it always did")
    func transportList() throws {
        let several = try ConfigLoader.parse("[transport]\nkind = bluez,  udp,lan\n[lan]\nport = 7200\npeers = 127.0.0.1:7201\n", file: "t.conf")
        #expect(several.transport.kinds == [.bluez, .udp, .lan])
        #expect(several.transport.name == "bluez,udp,lan")
        #expect(several.lan.port == 7200 && several.lan.neighbours.map(\.description) == ["127.0.0.1:7201"])
        #expect(try ConfigLoader.parse(several.rendered(), file: "t.conf") == several)
        #expect(try ConfigLoader.parse("[transport]\nkind = udp\n", file: "t.conf").transport.kinds == [.udp])
        #expect(DaemonSettings().transport.kinds == [.bluez])
        #expect(DaemonSettings().lan.port != DaemonSettings().udp.port)
    }

    @Test("[bluez] rotate_address is auto unless set, refuses other words, and survives --print-config", arguments: [
        ("", AddressRotationSetting.auto), ("rotate_address = on\n", .on), ("rotate_address = off\n", .off),
        ("rotate_address = auto\n", .auto),
    ])
    func rotateAddress(_ line: String, _ setting: AddressRotationSetting) throws {
        let settings = try ConfigLoader.parse("[bluez]\n" + line, file: "t.conf")
        #expect(settings.bluez.rotateAddress == setting)
        #expect(try ConfigLoader.parse(settings.rendered(), file: "t.conf") == settings)
        #expect(throws: (any Error).self) { try ConfigLoader.parse("[bluez]\nrotate_address = yes\n", file: "t.conf") }
    }

    @Test("[lan] discovery is on unless turned off, and survives --print-config", arguments: [
        ("", true), ("discovery = off\n", false), ("discovery = no\n", false), ("discovery = on\n", true), ("discovery = true\n", true),
    ])
    func lanDiscovery(_ line: String, _ on: Bool) throws {
        let settings = try ConfigLoader.parse("[lan]\ninterface = eth0\n" + line, file: "t.conf")
        #expect(settings.lan.discovery == on)
        #expect(try ConfigLoader.parse(settings.rendered(), file: "t.conf") == settings)
    }

    @Test func unknownKeyErrorIsTyped() throws {
        let error = thrownError(ConfigError.self) {
            try ConfigLoader.parse("[relay]\nttl.mesage = 3\n", file: "meshnoded.conf")
        }
        #expect(error?.file == "meshnoded.conf")
        #expect(error?.line == 2)
        #expect(error?.problem == .unknownKey(key: "ttl.mesage", section: "relay"))
    }

    @Test func everyOptionIsRead() throws {
        let text = """
        [node]
        name = Hallway 🐝
        icon = 🐝
        state_directory = /srv/mesh
        runtime_directory = /run/mesh
        control_group = wheel
        log_level = debug
        [transport]
        kind = udp
        [udp]
        bind = 127.0.0.2
        port = 7100
        neighbours = 127.0.0.1:7101, localhost:7102,127.0.0.1:7101
        mtu = 23
        loss = 0.25
        keepalive_interval = 100ms
        link_timeout = 400ms
        [bluez]
        adapter = hci1
        allow = aa:bb:cc:dd:ee:ff, 00112233445566778899AABBCCDDEEFF
        max_connections = 4
        [relay]
        ttl.message = 4
        ttl.join = 1
        [timers]
        heartbeat_interval = 2m
        departure_grace = 1h
        rekey_interval = 2h
        [seen]
        expiry = 15m
        [fragments]
        max_transfers_per_link = 8
        [crypto]
        padding = off
        """
        let config = try ConfigLoader.parse(text, file: "test.conf")
        #expect(config.node.name == "Hallway 🐝")
        #expect(config.node.controlSocket == "/run/mesh/control.sock")
        #expect(config.node.logLevel == .debug)
        #expect(config.transport.kinds == [.udp])
        #expect(config.udp.bind == "127.0.0.2")
        #expect(config.udp.neighbours.map(\.description) == ["127.0.0.1:7101", "127.0.0.1:7102"])
        #expect(config.udp.keepaliveInterval == .milliseconds(100))
        #expect(config.bluez.allow == [.address("AA:BB:CC:DD:EE:FF"), .node("00112233445566778899aabbccddeeff")])
        #expect(config.relay.ttlMessage == 4 && config.relay.ttlJoin == 1)
        #expect(config.timers.heartbeatInterval == .seconds(120))
        #expect(config.timers.rekeyInterval == .seconds(7200))
        #expect(config.seen.expiry == .seconds(900))
        #expect(config.fragments.maxTransfersPerLink == 8)
        #expect(config.crypto.padding == false)
    }

    @Test func defaultsMatchTheDocumentedValues() {
        let config = DaemonSettings()
        #expect(config.node.controlSocket == ControlSocketDefaults.path)
        #expect(config.udp.mtu == 185 && config.udp.loss == 0)
        #expect(config.relay.ttlMessage == 3 && config.relay.ttlJoin == 2)
        #expect(config.timers.departureGrace == .seconds(30) && config.timers.rekeyInterval == .seconds(3600))
        #expect(config.seen.capacity == 65_536 && config.seen.expiry == .seconds(600))
        #expect(config.fragments.timeout == .seconds(10) && config.fragments.maxMessage == 65_536)
    }

    @Test func renderedConfigParsesBackToTheSameValue() throws {
        var config = DaemonSettings()
        config.node.controlSocketOverride = "/tmp/x.sock"
        config.udp.neighbours = [try UDPEndpoint(parsing: "127.0.0.1:9"), try UDPEndpoint(parsing: "127.0.0.3:10")]
        config.udp.keepaliveInterval = .milliseconds(250)
        config.bluez.deny = [.address("AA:BB:CC:DD:EE:FF")]
        #expect(try ConfigLoader.parse(config.rendered(), file: "x") == config)
        #expect(try ConfigLoader.parse(DaemonSettings().rendered(), file: "x") == DaemonSettings())
    }

    @Test func fileAndLineLimits() {
        let long = "[node]\nname = " + String(repeating: "a", count: ConfigFileParser.maxLineBytes) + "\n"
        #expect(throws: ConfigError(file: "f", line: 2, problem: .lineTooLong(limit: 1024))) {
            try ConfigLoader.parse(long, file: "f")
        }
        let huge = String(repeating: "# padding\n", count: ConfigFileParser.maxFileBytes / 10 + 1)
        #expect(throws: ConfigError(file: "f", line: nil, problem: .fileTooLarge(limit: 65_536))) {
            try ConfigLoader.parse(huge, file: "f")
        }
        #expect(throws: ConfigError(file: "f", line: nil, problem: .notText)) {
            try ConfigLoader.parse("[node]\nname = a\u{0}b\n", file: "f")
        }
    }

    @Test("durations", arguments: [
        ("500ms", Duration.milliseconds(500)), ("10s", .seconds(10)), ("2m", .seconds(120)), ("1h", .seconds(3600)),
    ])
    func durations(_ text: String, _ value: Duration) throws {
        #expect(try ConfigValue.duration(text, in: .zero...(.seconds(86_400))) == value)
        #expect(ConfigValue.format(value) == text)
    }

    @Test("bad durations", arguments: ["", "s", "10", "10 s", "1.5s", "-1s", "10d", "9999999999s"])
    func badDurations(_ text: String) {
        #expect(throws: InvalidValue.self) { try ConfigValue.duration(text, in: .zero...(.seconds(86_400))) }
    }
}
