import Doctor
import Testing

/// The unit's address rules and the firewall, judged for a node on eth0 (192.168.1.20/24) with discovery.
@Suite("The LAN access checks: the unit's address rules and the firewall")
struct DoctorLANAccessTests {
    static let lan = DoctorFixtures.lanSetup
    static func prefixes(_ texts: String...) -> [AddressPrefix] { texts.map { AddressPrefix(ipv4: $0)! } }
    static let eth0 = InterfaceFact.present(InterfaceState(up: true, running: true, multicast: true, ipv4: ["192.168.1.20"],
                                                           networks: prefixes("192.168.1.20/24")))
    /// The shipped unit: loopback only.
    static let shipped = UnitAddressFact.rules(allow: prefixes("127.0.0.0/8"), deny: prefixes("0.0.0.0/0"))

    static func unitRules(_ fact: UnitAddressFact, setup: DoctorSetup = lan, interface: InterfaceFact = eth0) -> DoctorFinding {
        DoctorFixtures.finding(.lanUnitRules, in: DoctorFixtures.healthy { $0.lanUnitRules = fact; $0.lanInterface = interface }, setup: setup)
    }

    @Test("the unit's rules are judged for the subnet and the group", arguments: [
        (shipped, DoctorSeverity.fail, "drops 192.168.1.0/24"),
        (.rules(allow: prefixes("127.0.0.0/8", "192.168.0.0/16"), deny: prefixes("0.0.0.0/0")), .fail, "drops 224.0.0.254/32"),
        (.rules(allow: prefixes("127.0.0.0/8", "192.168.1.0/24", "224.0.0.254"), deny: prefixes("0.0.0.0/0")), .ok, "lets 192.168.1.0/24 and 224.0.0.254/32 in"),
        (.rules(allow: prefixes("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "224.0.0.254", "169.254.0.0/16"), deny: prefixes("0.0.0.0/0")), .ok, "lets"),
        (.rules(allow: prefixes("192.168.1.0/25", "224.0.0.254"), deny: prefixes("0.0.0.0/0")), .warn, "drops part of 192.168.1.0/24"),
        (.rules(allow: [], deny: prefixes("192.168.1.128/25")), .warn, "drops part of"),
        (.rules(allow: [], deny: []), .ok, "lets"),
        (.rules(allow: [], deny: prefixes("10.0.0.0/8")), .ok, "lets"),
        (.unknown("meshnoded was started by hand: the unit's rules do not bind it"), .skip, "not checked: meshnoded was started by hand"),
    ] as [(UnitAddressFact, DoctorSeverity, String)])
    func unitRulesVerdict(_ fact: UnitAddressFact, _ severity: DoctorSeverity, _ mentions: String) {
        let finding = Self.unitRules(fact)
        #expect(finding.severity == severity, "\(finding)")
        #expect(finding.summary.contains(mentions), "\(finding)")
        #expect((finding.fix != nil) == (severity == .warn || severity == .fail), "\(finding)")
        if severity == .fail { #expect(finding.fix?.contains("IPAddressAllow=192.168.1.0/24 224.0.0.254") == true, "\(finding)") }
    }

    @Test func withoutDiscoveryTheGroupIsNotNeeded() {
        var setup = Self.lan
        setup.lanDiscovery = false
        let fact = UnitAddressFact.rules(allow: Self.prefixes("192.168.1.0/24"), deny: Self.prefixes("0.0.0.0/0"))
        #expect(Self.unitRules(fact, setup: setup).severity == .ok)
    }

    /// An interface with a link-local IPv6 address as well (or alone): fe80::/10 and ff02::114 are judged too.
    @Test("IPv6 link-local needs fe80::/10 and the IPv6 group", arguments: [
        (true, ["127.0.0.0/8", "192.168.1.0/24", "224.0.0.254"], [String](), DoctorSeverity.fail, "drops fe80:0:0:0:0:0:0:0/10"),
        (true, ["127.0.0.0/8", "192.168.1.0/24", "224.0.0.254"], ["fe80::/10"], .fail, "the IPv6 discovery group"),
        (true, ["127.0.0.0/8", "192.168.1.0/24", "224.0.0.254"], ["fe80::/10", "ff02::114"], .ok, "lets"),
        (false, ["127.0.0.0/8"], ["fe80::/10", "ff02::114"], .ok, "lets fe80"),
        (false, ["127.0.0.0/8"], ["fe80::/64", "ff02::114"], .warn, "drops part of fe80"),
    ] as [(Bool, [String], [String], DoctorSeverity, String)])
    func linkLocal(_ withIPv4: Bool, _ allow4: [String], _ allow6: [String], _ severity: DoctorSeverity, _ mentions: String) {
        let interface = InterfaceFact.present(InterfaceState(
            up: true, running: true, multicast: true, ipv4: withIPv4 ? ["192.168.1.20"] : [],
            networks: withIPv4 ? Self.prefixes("192.168.1.20/24") : [], linkLocal: ["fe80::2"]))
        let allow = allow4.map { AddressPrefix(ipv4: $0)! } + allow6.map(Self.ipv6)
        let fact = UnitAddressFact.rules(allow: allow, deny: Self.prefixes("0.0.0.0/0") + [Self.ipv6("::/0")])
        let finding = Self.unitRules(fact, interface: interface)
        #expect(finding.severity == severity, "\(finding)")
        #expect(finding.summary.contains(mentions), "\(finding)")
        if severity == .fail { #expect(finding.fix?.contains("fe80:0:0:0:0:0:0:0/10 ff02:0:0:0:0:0:0:114") == true, "\(finding)") }
    }

    /// An IPv6 prefix from `fe80::/10` text (inet_pton's job, done here with the two forms the test uses).
    static func ipv6(_ text: String) -> AddressPrefix {
        let parts = text.split(separator: "/")
        let length = parts.count == 2 ? Int(parts[1])! : 128
        let halves = parts[0].split(separator: "::", omittingEmptySubsequences: false)
        func groups(_ half: Substring) -> [UInt16] { half.split(separator: ":").map { UInt16($0, radix: 16)! } }
        let head = groups(halves[0]), tail = halves.count > 1 ? groups(halves[1]) : []
        let all = head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        return AddressPrefix(bytes: all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, length: length)
    }

    @Test("no LAN interface, or no subnet on it: skipped", arguments: [
        (DoctorSetup(transport: "bluez"), eth0, "not used"),
        (DoctorSetup(transport: "lan"), eth0, "loopback"),
        (lan, InterfaceFact.missing(others: ["lo"]), "no IPv4 subnet and no link-local address"),
    ])
    func skipped(_ setup: DoctorSetup, _ interface: InterfaceFact, _ mentions: String) {
        let unit = Self.unitRules(Self.shipped, setup: setup, interface: interface)
        #expect(unit.severity == .skip && unit.summary.contains(mentions), "\(unit)")
        let firewall = DoctorFixtures.finding(.lanFirewall, in: DoctorFixtures.healthy { $0.lanFirewall = .nftables([]) }, setup: setup)
        #expect(firewall.severity == (setup == Self.lan ? .ok : .skip), "\(firewall)")
    }

    // Firewall: one inet filter input chain with these rules and policy.
    static func chain(_ rules: [FirewallRule], drops: Bool = true) -> FirewallFact {
        .nftables([FirewallChain(name: "inet filter input", policyDrops: drops, rules: rules)])
    }
    static let established = FirewallRule([.connectionStates(["established", "related"], negated: false)], .accept)
    static let ssh = FirewallRule([.notUDP], .accept)
    static let loopback = FirewallRule([.inputInterfaces(["lo"], negated: false)], .accept)

    @Test("the firewall is judged for UDP 7101 and 7100 on eth0, never a FAIL it cannot prove", arguments: [
        ("policy drop, only ssh and replies", chain([established, ssh, loopback]), DoctorSeverity.fail, "drops UDP port 7101 on eth0 (its policy drop"),
        ("policy drop, the LAN port only", chain([FirewallRule([.udpPorts([7101...7101], negated: false)], .accept)]), .fail, "drops UDP port 7100"),
        ("both ports by a set", chain([established, FirewallRule([.udpPorts([7100...7101], negated: false)], .accept)]), .ok, "accepts UDP ports 7101, 7100"),
        ("everything on eth0", chain([FirewallRule([.inputInterfaces(["eth*"], negated: false)], .accept)]), .ok, "accepts"),
        ("new and established", chain([FirewallRule([.connectionStates(["new", "established"], negated: false)], .accept)]), .ok, "accepts"),
        ("policy accept", chain([established], drops: false), .ok, "accepts"),
        ("an explicit drop", chain([FirewallRule([.udpPorts([7000...7200], negated: false)], .drop)], drops: false), .fail, "its rule 1"),
        ("a source address rule first", chain([FirewallRule([.other], .accept)]), .skip, "rule 1 of nftables chain inet filter input"),
        ("a jump first", chain([FirewallRule([], .jump)]), .skip, "not checked"),
        ("a jump for tcp only", chain([FirewallRule([.notUDP], .jump)]), .fail, "policy drop"),
        ("an unclear drop before the accept", chain([FirewallRule([.other], .drop), FirewallRule([], .accept)]), .skip, "not checked"),
        ("no input chain", .nftables([]), .ok, "no input chain"),
        ("not root", .notRead("run relayctl doctor as root to read the firewall"), .skip, "as root"),
    ] as [(String, FirewallFact, DoctorSeverity, String)])
    func firewallVerdict(_ name: String, _ fact: FirewallFact, _ severity: DoctorSeverity, _ mentions: String) {
        let finding = DoctorFixtures.finding(.lanFirewall, in: DoctorFixtures.healthy { $0.lanFirewall = fact }, setup: Self.lan)
        #expect(finding.severity == severity, "\(name): \(finding)")
        #expect(finding.summary.contains(mentions), "\(name): \(finding)")
        if severity == .fail { #expect(finding.fix?.contains("nft insert rule inet filter input iifname eth0 udp dport { 7101, 7100 } accept") == true) }
    }

    @Test("prefixes contain and overlap bit by bit", arguments: [
        ("10.0.0.0/8", "10.1.2.0/24", true, true), ("10.1.2.0/24", "10.0.0.0/8", false, true),
        ("192.168.1.0/25", "192.168.1.128/25", false, false), ("0.0.0.0/0", "224.0.0.254", true, true),
        ("172.16.0.0/12", "172.32.0.0/16", false, false), ("224.0.0.254", "224.0.0.254/32", true, true),
    ])
    func prefixLogic(_ outer: String, _ inner: String, _ contains: Bool, _ overlaps: Bool) {
        let a = AddressPrefix(ipv4: outer)!, b = AddressPrefix(ipv4: inner)!
        #expect(a.contains(b) == contains && a.overlaps(b) == overlaps)
    }

    @Test("bad prefixes are refused", arguments: ["10.0.0", "10.0.0.0/33", "256.0.0.1", "a.b.c.d", "10.0.0.0.0", ""])
    func badPrefix(_ text: String) {
        #expect(AddressPrefix(ipv4: text) == nil)
    }
}
