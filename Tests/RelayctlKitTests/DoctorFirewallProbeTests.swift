import DBusKit
import Doctor
import Testing
@testable import RelayctlKit

/// `nft -j list ruleset` output read into the input chains the doctor judges.
@Suite("The doctor reads nftables' JSON")
struct DoctorFirewallProbeTests {
    /// A Debian-style ruleset: inet filter input, policy drop, loopback, replies, ssh, and `extra` rules.
    static func ruleset(policy: String = "drop", extra: String = "") -> [UInt8] {
        let rules = [
            #"[{"match":{"op":"==","left":{"meta":{"key":"iif"}},"right":"lo"}},{"accept":null}]"#,
            #"[{"match":{"op":"in","left":{"ct":{"key":"state"}},"right":["established","related"]}},{"counter":{"packets":1,"bytes":2}},{"accept":null}]"#,
            #"[{"match":{"op":"==","left":{"payload":{"protocol":"tcp","field":"dport"}},"right":22}},{"accept":null}]"#,
        ] + (extra.isEmpty ? [] : [extra])
        let ruleItems = rules.enumerated().map { index, expr in
            #"{"rule":{"family":"inet","table":"filter","chain":"input","handle":\#(index + 4),"expr":\#(expr)}}"#
        }
        let items = [
            #"{"metainfo":{"version":"1.0.6","release_name":"Lester Gooch #5","json_schema_version":1}}"#,
            #"{"table":{"family":"inet","name":"filter","handle":1}}"#,
            #"{"chain":{"family":"inet","table":"filter","name":"input","handle":1,"type":"filter","hook":"input","prio":0,"policy":"\#(policy)"}}"#,
            #"{"chain":{"family":"inet","table":"filter","name":"forward","handle":2,"type":"filter","hook":"forward","prio":0,"policy":"drop"}}"#,
            #"{"chain":{"family":"ip6","table":"v6","name":"input","handle":3,"type":"filter","hook":"input","prio":0,"policy":"drop"}}"#,
        ] + ruleItems
        return Array(#"{"nftables":[\#(items.joined(separator: ","))]}"#.utf8)
    }

    @Test func aDropPolicyWithoutTheLANPortsIsRead() throws {
        guard case .nftables(let chains) = DoctorFirewallProbe.parse(Self.ruleset()) else {
            Issue.record("not read")
            return
        }
        #expect(chains.map(\.name) == ["inet filter input"], "forward and ip6 chains are left out")
        let chain = try #require(chains.first)
        #expect(chain.policyDrops && chain.rules.count == 3)
        #expect(chain.rules[0] == FirewallRule([.inputInterfaces(["lo"], negated: false)], .accept))
        #expect(chain.rules[1] == FirewallRule([.connectionStates(["established", "related"], negated: false)], .accept))
        #expect(chain.rules[2] == FirewallRule([.notUDP], .accept))
        #expect(chain.outcome(port: 7101, interface: "eth0") == .dropped(rule: nil))
    }

    @Test("a rule accepting the LAN ports is understood in each form nft prints", arguments: [
        (#"[{"match":{"op":"==","left":{"payload":{"protocol":"udp","field":"dport"}},"right":{"set":[7100,7101]}}},{"accept":null}]"#, FirewallOutcome.accepted),
        (#"[{"match":{"op":"==","left":{"payload":{"protocol":"udp","field":"dport"}},"right":{"range":[7000,7200]}}},{"accept":null}]"#, .accepted),
        (#"[{"match":{"op":"==","left":{"meta":{"key":"iifname"}},"right":"eth0"}},{"accept":null}]"#, .accepted),
        (#"[{"match":{"op":"==","left":{"meta":{"key":"l4proto"}},"right":"udp"}},{"accept":null}]"#, .accepted),
        (#"[{"match":{"op":"==","left":{"payload":{"protocol":"udp","field":"dport"}},"right":53}},{"accept":null}]"#, .dropped(rule: nil)),
        (#"[{"match":{"op":"==","left":{"payload":{"protocol":"ip","field":"saddr"}},"right":{"prefix":{"addr":"192.168.1.0","len":24}}}},{"accept":null}]"#, .unclear(rule: 3)),
        (#"[{"jump":{"target":"ufw-input"}}]"#, .unclear(rule: 3)),
        (#"[{"match":{"op":"==","left":{"payload":{"protocol":"udp","field":"dport"}},"right":"domain"}},{"accept":null}]"#, .unclear(rule: 3)),
    ] as [(String, FirewallOutcome)])
    func extraRule(_ rule: String, _ expected: FirewallOutcome) throws {
        guard case .nftables(let chains) = DoctorFirewallProbe.parse(Self.ruleset(extra: rule)) else {
            Issue.record("not read")
            return
        }
        let chain = try #require(chains.first)
        #expect(chain.outcome(port: 7101, interface: "eth0") == expected)
    }

    @Test("output that is not nft's JSON is not read, never judged", arguments: ["", "not json", #"{"other":1}"#, #"{"nftables":"#])
    func garbage(_ text: String) {
        guard case .notRead(let why) = DoctorFirewallProbe.parse(Array(text.utf8)) else {
            Issue.record("read garbage")
            return
        }
        #expect(why.contains("not understood"))
    }

    @Test func aCommandIsRunWithinItsBounds() {
        #expect(DoctorCommand.run(["/bin/echo", "hello"], timeout: .seconds(5), maxOutput: 100) == .success(Array("hello\n".utf8)))
        #expect(DoctorCommand.run(["/bin/sh", "-c", "exit 3"], timeout: .seconds(5), maxOutput: 100) == .failure(.exited(status: 3 << 8)))
        #expect(DoctorCommand.run(["/bin/sh", "-c", "yes"], timeout: .seconds(5), maxOutput: 1000) == .failure(.tooLong))
        #expect(DoctorCommand.run(["/bin/sleep", "5"], timeout: .milliseconds(200), maxOutput: 100) == .failure(.timedOut))
    }
}

/// systemd's `IPAddressAllow=`/`IPAddressDeny=` as D-Bus sends them: `a(iayu)`.
@Suite("The doctor reads the unit's address rules")
struct DoctorUnitAddressTests {
    static func entry(_ family: Int32, _ bytes: [UInt8], _ length: UInt32) -> DBusValue {
        .structure([.int32(family), .bytes(bytes), .uint32(length)])
    }

    @Test func localhostAndAnyAreRead() {
        let value = DBusValue.variant(.array(element: "(iayu)", [
            Self.entry(2, [127, 0, 0, 0], 8), Self.entry(10, [UInt8](repeating: 0, count: 15) + [1], 128), Self.entry(2, [224, 0, 0, 254], 32),
        ]))
        #expect(DoctorSystemdProbe.prefixes(value)?.map(\.description) == ["127.0.0.0/8", "0:0:0:0:0:0:0:1/128", "224.0.0.254/32"])
        #expect(DoctorSystemdProbe.prefixes(.array(element: "(iayu)", [])) == [])
    }

    @Test("anything else is not read", arguments: [
        DBusValue.string("any"), .array(element: "(iayu)", [.structure([.int32(2), .bytes([1, 2, 3]), .uint32(8)])]),
        .array(element: "(iay)", [.structure([.int32(2), .bytes([1, 2, 3, 4])])]),
    ])
    func notRules(_ value: DBusValue) {
        #expect(DoctorSystemdProbe.prefixes(value) == nil)
    }
}
