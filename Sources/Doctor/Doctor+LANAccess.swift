/// Whether LAN datagrams can reach meshnoded: the unit's address rules and the host firewall.
extension Doctor {
    /// The finding that skips a LAN check when there is no LAN interface to judge; nil when there is.
    static func lanSkip(_ check: DoctorCheck, setup: DoctorSetup) -> DoctorFinding? {
        guard setup.usesLAN else { return DoctorFinding(check, .skip, "not used: meshnoded runs on \(setup.transport)") }
        guard !setup.lanInterface.isEmpty else { return DoctorFinding(check, .skip, "[lan] runs on loopback (no interface configured)") }
        return nil
    }

    static func lanUnitRules(_ fact: UnitAddressFact, interface: InterfaceFact, setup: DoctorSetup) -> DoctorFinding {
        if let skip = lanSkip(.lanUnitRules, setup: setup) { return skip }
        if case .unknown(let why) = fact { return DoctorFinding(.lanUnitRules, .skip, "not checked: \(why)") }
        guard case .present(let state) = interface, !state.networks.isEmpty || !state.linkLocal.isEmpty else {
            return DoctorFinding(.lanUnitRules, .skip, "not checked: \(setup.lanInterface) has no IPv4 subnet and no link-local address")
        }
        var wanted = state.networks.map(\.masked).map { ($0, "\(setup.lanInterface)'s subnet") }
        if setup.lanDiscovery, !state.networks.isEmpty { wanted.append((AddressPrefix(ipv4: "224.0.0.254")!, "the discovery group")) }
        if !state.linkLocal.isEmpty {
            wanted.append((AddressPrefix.ipv6LinkLocal, "IPv6 link-local"))
            if setup.lanDiscovery { wanted.append((AddressPrefix.ipv6DiscoveryGroup, "the IPv6 discovery group")) }
        }
        let judged = wanted.map { ($0.0, $0.1, fact.verdict(for: $0.0) ?? .allowed) }
        let allow = wanted.map(\.0.unitFileText).joined(separator: " ")
        let fix = "add IPAddressAllow=\(allow) in a drop-in (systemd/lan.conf; OPERATIONS.md, \"Several Pis on one LAN\"), "
            + "then systemctl daemon-reload && systemctl restart meshnoded"
        if let denied = judged.first(where: { $0.2 == .denied }) {
            return DoctorFinding(.lanUnitRules, .fail, "\(setup.unit)'s IPAddressDeny= drops \(denied.0) (\(denied.1)): its datagrams never reach meshnoded",
                                 fix: fix)
        }
        if let partly = judged.first(where: { $0.2 == .partly }) {
            return DoctorFinding(.lanUnitRules, .warn, "\(setup.unit)'s IPAddressDeny= drops part of \(partly.0) (\(partly.1))", fix: fix)
        }
        return DoctorFinding(.lanUnitRules, .ok, "\(setup.unit) lets \(wanted.map { "\($0.0)" }.joined(separator: " and ")) in")
    }

    static func lanFirewall(_ fact: FirewallFact, setup: DoctorSetup) -> DoctorFinding {
        if let skip = lanSkip(.lanFirewall, setup: setup) { return skip }
        let chains: [FirewallChain]
        switch fact {
        case .notRead(let why): return DoctorFinding(.lanFirewall, .skip, "not checked: \(why)")
        case .nftables(let read): chains = read
        }
        let ports = [setup.lanPort] + (setup.lanDiscovery ? [UInt16(7100)] : [])
        let shown = ports.map(String.init).joined(separator: ", ")
        var unclear: String?
        for chain in chains {
            for port in ports {
                switch chain.outcome(port: port, interface: setup.lanInterface) {
                case .accepted: continue
                case .dropped(let rule):
                    let by = rule.map { "its rule \($0 + 1)" } ?? "its policy drop, no rule accepting it"
                    return DoctorFinding(.lanFirewall, .fail, "nftables chain \(chain.name) drops UDP port \(port) on \(setup.lanInterface) (\(by))",
                                         fix: "nft insert rule \(chain.name) iifname \(setup.lanInterface) udp dport { \(shown) } accept "
                                             + "(and the same in /etc/nftables.conf)")
                case .unclear(let rule):
                    unclear = unclear ?? "not checked: rule \(rule + 1) of nftables chain \(chain.name) may decide UDP port \(port)"
                }
            }
        }
        if let unclear { return DoctorFinding(.lanFirewall, .skip, unclear) }
        let seen = chains.isEmpty ? "nftables has no input chain" : "nftables accepts UDP port\(ports.count > 1 ? "s" : "") \(shown) on \(setup.lanInterface)"
        return DoctorFinding(.lanFirewall, .ok, seen + " (iptables-legacy rules are not read)")
    }
}

extension AddressPrefix {
    /// fe80::/10, IPv6 link-local unicast: where LAN peers without IPv4 dial from.
    static let ipv6LinkLocal = AddressPrefix(bytes: [0xFE, 0x80] + [UInt8](repeating: 0, count: 14), length: 10)
    /// ff02::114, LAN discovery's IPv6 group (PROTOCOL.md Part I).
    static let ipv6DiscoveryGroup = AddressPrefix(bytes: [0xFF, 0x02] + [UInt8](repeating: 0, count: 12) + [0x01, 0x14], length: 128)

    /// As a unit file writes it: a single address without its /32 or /128.
    var unitFileText: String {
        let text = description
        return length == bytes.count * 8 ? String(text.prefix { $0 != "/" }) : text
    }

    /// The network: host bits cleared.
    var masked: AddressPrefix {
        var bytes = bytes
        for index in bytes.indices {
            let used = min(max(length - index * 8, 0), 8)
            bytes[index] &= UInt8(truncatingIfNeeded: 0xFF << (8 - used))
        }
        return AddressPrefix(bytes: bytes, length: length)
    }
}
