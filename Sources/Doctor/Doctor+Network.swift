/// The adapter's address privacy and the `[lan] interface`.
extension Doctor {
    /// What to do when privacy is off, and what it changes.
    static let privacyFix = "set Privacy = device under [General] in /etc/bluetooth/main.conf, then systemctl restart bluetooth "
        + "(other nodes' [bluez] allow/deny entries naming this adapter's address then stop matching it)"

    static func privacy(_ fact: PrivacyFact, setup: DoctorSetup) -> DoctorFinding {
        let name = setup.adapter
        switch fact {
        case .unknown:
            return DoctorFinding(.privacy, .skip, "not checked: no adapter")
        case .kernel(on: true):
            return DoctorFinding(.privacy, .ok, "\(name) advertises and dials from resolvable private addresses (kernel: privacy on)")
        case .kernel(on: false):
            return DoctorFinding(.privacy, .warn, "\(name) uses its fixed address (kernel: privacy off): the hourly name changes, the address does not",
                                 fix: privacyFix)
        case .configured(_, let reason, let readError?):
            return DoctorFinding(.privacy, .skip, "not checked: the kernel could not be asked (\(reason)) "
                                 + "and /etc/bluetooth/main.conf could not be read (\(readError))")
        case .configured(let value?, let reason, nil) where PrivacyFact.onValues.contains(value):
            return DoctorFinding(.privacy, .ok, "main.conf sets Privacy = \(value), applied when bluetoothd starts (kernel not asked: \(reason))")
        case .configured(let value, let reason, nil):
            let shown = switch value {
            case nil: "main.conf leaves Privacy off (the default)"
            case "off": "main.conf sets Privacy = off"
            case let other?: "main.conf sets Privacy = \(other), which bluetoothd does not know and takes as off"
            }
            return DoctorFinding(.privacy, .warn, "\(shown) (kernel not asked: \(reason))", fix: privacyFix)
        }
    }

    static func lanInterface(_ fact: InterfaceFact, setup: DoctorSetup) -> DoctorFinding {
        let name = setup.lanInterface
        guard setup.usesLAN else {
            return DoctorFinding(.lanInterface, .skip, "not used: meshnoded runs on \(setup.transport)")
        }
        switch fact {
        case .notConfigured:
            return DoctorFinding(.lanInterface, .skip, "[lan] runs on loopback (no interface configured)")
        case .unreadable(let why):
            return DoctorFinding(.lanInterface, .warn, "the interfaces could not be listed (\(why))", fix: "ip -4 addr show \(name)")
        case .missing(let others):
            return DoctorFinding(.lanInterface, .fail, "no interface \(name) (there are \(others.isEmpty ? "none" : others.joined(separator: ", ")))",
                                 fix: "set [lan] interface in the configuration to the LAN's interface (ip link)")
        case .present(let state) where !state.up:
            return DoctorFinding(.lanInterface, .fail, "\(name) is down", fix: "ip link set \(name) up (or bring the network up)")
        case .present(let state) where state.ipv4.isEmpty && state.linkLocal.isEmpty:
            return DoctorFinding(.lanInterface, .warn, "\(name) is up without an IPv4 or IPv6 link-local address: meshnoded waits for one",
                                 fix: "turn IPv6 on for \(name) (sysctl net.ipv6.conf.\(name).disable_ipv6=0), or give it an IPv4 address (DHCP)")
        case .present(let state) where !state.running:
            return DoctorFinding(.lanInterface, .warn, "\(name) \(state.addresses) is up without a carrier",
                                 fix: "plug in the cable or join the Wi-Fi network")
        case .present(let state) where setup.lanDiscovery && !state.multicast:
            return DoctorFinding(.lanInterface, .warn, "\(name) takes no multicast: discovery (ff02::114 and 224.0.0.254, port 7100) finds nobody",
                                 fix: "ip link set \(name) multicast on, or set [lan] discovery = off and list the peers in [lan] neighbours")
        case .present(let state):
            let multicast = setup.lanDiscovery ? ", multicast on for discovery (ff02::114 and 224.0.0.254, port 7100)" : ""
            return DoctorFinding(.lanInterface, .ok, "\(name) up, \(state.addresses), UDP port \(setup.lanPort)\(multicast)")
        }
    }
}
