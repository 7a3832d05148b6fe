import Doctor

/// A healthy node's facts and set-up, for tests to break one fact at a time.
enum DoctorFixtures {
    static let setup = DoctorSetup()

    static let mine = FileStatus(kind: .directory, mode: 0o700, owner: "meshnode")

    static let healthy = DoctorFacts(
        bluetoothd: .reachable(version: BlueZVersion(major: 5, minor: 66)),
        adapter: .present(AdapterState(address: "00:AA:01:00:00:23", powered: true, powerState: "on",
                                       roles: ["central", "peripheral", "central-peripheral"],
                                       advertising: AdvertisingInstances(supported: 4, active: 1))),
        dbusPolicy: .present(path: "/usr/share/dbus-1/system.d/meshnoded.conf", namesServiceUser: true),
        serviceUserExists: true,
        controlGroupExists: true,
        stateDirectory: .present(mine),
        identity: .present(FileStatus(kind: .regular, mode: 0o600, owner: "meshnode")),
        clock: ClockFact(synchronised: true, maxErrorMicroseconds: 12_000, year: 2026, shown: "2026-12-03 07:45:12"),
        space: .measured(path: "/var/lib/meshnoded", availableBytes: 12 << 30, totalBytes: 29 << 30),
        unit: .loaded(UnitState(active: "active", sub: "running", fileState: "enabled")),
        daemon: .answered(DaemonStatus(state: "running", transportState: "running on hci0", version: "0.9.0",
                                       meshClock: MeshClockFact(synchronised: true, offsetMilliseconds: -420, votes: 3))),
        privacy: .kernel(on: true),
        lanInterface: .present(InterfaceState(up: true, running: true, multicast: true, ipv4: ["192.168.1.20"],
                                              networks: [AddressPrefix(ipv4: "192.168.1.20/24")!])),
        lanUnitRules: .rules(allow: ["127.0.0.0/8", "192.168.1.0/24", "224.0.0.254"].map { AddressPrefix(ipv4: $0)! },
                             deny: [AddressPrefix(ipv4: "0.0.0.0/0")!]),
        lanFirewall: .nftables([FirewallChain(name: "inet filter input", policyDrops: true, rules: [
            FirewallRule([.udpPorts([7100...7101], negated: false)], .accept),
        ])]))

    /// The set-up of a node on Bluetooth and on a LAN (`[lan] interface = eth0`).
    static let lanSetup: DoctorSetup = {
        var setup = DoctorSetup(transport: "bluez,lan")
        setup.lanInterface = "eth0"
        return setup
    }()

    /// The healthy facts with one change.
    static func healthy(_ change: (inout DoctorFacts) -> Void) -> DoctorFacts {
        var facts = healthy
        change(&facts)
        return facts
    }

    /// The finding of one check.
    static func finding(_ check: DoctorCheck, in facts: DoctorFacts, setup: DoctorSetup = setup) -> DoctorFinding {
        Doctor.diagnose(facts, setup: setup).findings.first { $0.check == check }!
    }
}
