import Doctor
import Testing

/// One broken fact and what the doctor must say about it.
struct Breakage: Sendable, CustomTestStringConvertible {
    let name: String
    let check: DoctorCheck
    let severity: DoctorSeverity
    /// Words the summary or fix must contain.
    let mentions: String
    let change: @Sendable (inout DoctorFacts) -> Void

    var testDescription: String { name }
}

@Suite("A broken node")
struct DoctorBrokenTests {
    static let breakages: [Breakage] = [
        Breakage(name: "no system bus", check: .bluetoothd, severity: .fail, mentions: "systemctl start dbus") {
            $0.bluetoothd = .noSystemBus("No such file or directory")
        },
        Breakage(name: "no bluetoothd", check: .bluetoothd, severity: .fail, mentions: "systemctl enable --now bluetooth") {
            $0.bluetoothd = .absent
        },
        Breakage(name: "bluetoothd hangs", check: .bluetoothd, severity: .fail, mentions: "timed out") {
            $0.bluetoothd = .noReply("timed out")
        },
        Breakage(name: "bluetoothd not answering this user", check: .bluetoothd, severity: .warn, mentions: "as root") {
            $0.bluetoothd = .denied("Rejected send message"); $0.adapter = .unknown
        },
        Breakage(name: "an old bluetoothd", check: .bluetoothd, severity: .warn, mentions: "5.55") {
            $0.bluetoothd = .reachable(version: BlueZVersion(major: 5, minor: 55))
        },
        Breakage(name: "no such adapter", check: .adapter, severity: .fail, mentions: "hci1") {
            $0.adapter = .missing(others: ["hci1"])
        },
        Breakage(name: "adapter powered off", check: .adapter, severity: .fail, mentions: "bluetoothctl power on") {
            $0.adapter = .present(AdapterState(address: "00:AA:01:00:00:23", powered: false, powerState: "off",
                                               roles: ["central-peripheral"]))
        },
        Breakage(name: "adapter blocked by rfkill", check: .adapter, severity: .fail, mentions: "rfkill unblock") {
            $0.adapter = .present(AdapterState(address: "00:AA:01:00:00:23", powered: false, powerState: "off-blocked",
                                               roles: ["central-peripheral"]))
        },
        Breakage(name: "peripheral only", check: .roles, severity: .fail, mentions: "both LE roles") {
            $0.adapter = .present(AdapterState(address: "a", powered: true, roles: ["peripheral"],
                                               advertising: AdvertisingInstances(supported: 1, active: 0)))
        },
        Breakage(name: "roles not reported", check: .roles, severity: .warn, mentions: "Roles") {
            $0.adapter = .present(AdapterState(address: "a", powered: true, roles: nil,
                                               advertising: AdvertisingInstances(supported: 1, active: 0)))
        },
        Breakage(name: "no advertising instance", check: .advertising, severity: .fail, mentions: "btmgmt advinfo") {
            $0.adapter = .present(AdapterState(address: "a", powered: true, roles: ["central-peripheral"],
                                               advertising: AdvertisingInstances(supported: 0, active: 0)))
        },
        Breakage(name: "every advertising instance taken", check: .advertising, severity: .warn, mentions: "0 free, 1 active") {
            $0.adapter = .present(AdapterState(address: "a", powered: true, roles: ["central-peripheral"],
                                               advertising: AdvertisingInstances(supported: 0, active: 1)))
        },
        Breakage(name: "no advertising manager", check: .advertising, severity: .fail, mentions: "advertising manager") {
            $0.adapter = .present(AdapterState(address: "a", powered: true, roles: ["central-peripheral"]))
        },
        Breakage(name: "no D-Bus policy", check: .dbusPolicy, severity: .fail, mentions: "make install") {
            $0.dbusPolicy = .missing(searched: ["/usr/share/dbus-1/system.d", "/etc/dbus-1/system.d"])
        },
        Breakage(name: "a policy for another user", check: .dbusPolicy, severity: .fail, mentions: "policy user") {
            $0.dbusPolicy = .present(path: "/etc/dbus-1/system.d/meshnoded.conf", namesServiceUser: false)
        },
        Breakage(name: "no service user", check: .serviceUser, severity: .fail, mentions: "systemd-sysusers") {
            $0.serviceUserExists = false
        },
        Breakage(name: "no control group", check: .controlGroup, severity: .fail, mentions: "control_group") {
            $0.controlGroupExists = false
        },
        Breakage(name: "state directory owned by root", check: .stateDirectory, severity: .fail, mentions: "chown -R meshnode") {
            $0.stateDirectory = .present(FileStatus(kind: .directory, mode: 0o700, owner: "root"))
        },
        Breakage(name: "state directory open to others", check: .stateDirectory, severity: .warn, mentions: "chmod 700") {
            $0.stateDirectory = .present(FileStatus(kind: .directory, mode: 0o755, owner: "meshnode"))
        },
        Breakage(name: "state directory not there yet", check: .stateDirectory, severity: .warn, mentions: "StateDirectory=") {
            $0.stateDirectory = .missing
        },
        Breakage(name: "identity open to the group", check: .identity, severity: .fail, mentions: "chmod 600") {
            $0.identity = .present(FileStatus(kind: .regular, mode: 0o640, owner: "meshnode"))
        },
        Breakage(name: "identity owned by root", check: .identity, severity: .fail, mentions: "chown meshnode:") {
            $0.identity = .present(FileStatus(kind: .regular, mode: 0o600, owner: "root"))
        },
        Breakage(name: "identity is a directory", check: .identity, severity: .fail, mentions: "not a regular file") {
            $0.identity = .present(FileStatus(kind: .directory, mode: 0o700, owner: "meshnode"))
        },
        Breakage(name: "identity not readable by the doctor", check: .identity, severity: .warn, mentions: "as root") {
            $0.identity = .inaccessible("Permission denied")
        },
        Breakage(name: "no identity yet", check: .identity, severity: .warn, mentions: "first start") {
            $0.identity = .missing
        },
        Breakage(name: "a clock in 1970", check: .clock, severity: .fail, mentions: "timedatectl") {
            $0.clock = ClockFact(synchronised: false, year: 1970, shown: "1970-01-01 00:00:42")
        },
        Breakage(name: "a clock not synchronised", check: .clock, severity: .warn, mentions: "STA_UNSYNC") {
            $0.clock = ClockFact(synchronised: false, year: 2026, shown: "2026-12-03 07:45:12")
        },
        Breakage(name: "a clock of unknown state", check: .clock, severity: .warn, mentions: "adjtimex") {
            $0.clock = ClockFact(synchronised: nil, year: 2026, shown: "2026-12-03 07:45:12")
        },
        Breakage(name: "a daemon without mesh clock", check: .meshClock, severity: .skip, mentions: "reports no mesh clock") {
            $0.daemon = .answered(DaemonStatus(state: "running", transportState: "running on hci0", version: "0.9.0"))
        },
        Breakage(name: "a system clock 3 days behind mesh time", check: .meshClock, severity: .warn,
                 mentions: "3 d 0 h behind") {
            $0.daemon = .answered(DaemonStatus(state: "running", version: "0.9.0",
                                               meshClock: MeshClockFact(synchronised: true, offsetMilliseconds: 259_200_000, votes: 4)))
        },
        Breakage(name: "a system clock 5 min ahead of mesh time", check: .meshClock, severity: .warn,
                 mentions: "5 min ahead of") {
            $0.daemon = .answered(DaemonStatus(state: "running", version: "0.9.0",
                                               meshClock: MeshClockFact(synchronised: true, offsetMilliseconds: -300_000, votes: 2)))
        },
        Breakage(name: "a full disk", check: .diskSpace, severity: .fail, mentions: "512.0 KiB free") {
            $0.space = .measured(path: "/var/lib/meshnoded", availableBytes: 512 << 10, totalBytes: 8 << 30)
        },
        Breakage(name: "a nearly full disk", check: .diskSpace, severity: .warn, mentions: "below 64.0 MiB") {
            $0.space = .measured(path: "/var/lib/meshnoded", availableBytes: 20 << 20, totalBytes: 8 << 30)
        },
        Breakage(name: "no systemd", check: .unit, severity: .skip, mentions: "no systemd") {
            $0.unit = .noSystemd
        },
        Breakage(name: "unit not installed", check: .unit, severity: .fail, mentions: "dpkg -i") {
            $0.unit = .notInstalled
        },
        Breakage(name: "unit failed", check: .unit, severity: .fail, mentions: "journalctl -u meshnoded.service") {
            $0.unit = .loaded(UnitState(active: "failed", sub: "failed", fileState: "enabled"))
        },
        Breakage(name: "unit stopped", check: .unit, severity: .fail, mentions: "enable --now") {
            $0.unit = .loaded(UnitState(active: "inactive", sub: "dead", fileState: "disabled"))
        },
        Breakage(name: "unit running but not enabled", check: .unit, severity: .warn, mentions: "systemctl enable meshnoded") {
            $0.unit = .loaded(UnitState(active: "active", sub: "running", fileState: "disabled"))
        },
        Breakage(name: "systemd does not answer", check: .unit, severity: .warn, mentions: "timed out") {
            $0.unit = .noReply("timed out")
        },
        Breakage(name: "no daemon", check: .controlSocket, severity: .fail, mentions: "systemctl start") {
            $0.daemon = .cannotConnect(errno: 2, reason: "No such file or directory")
        },
        Breakage(name: "not in the control group", check: .controlSocket, severity: .fail, mentions: "usermod -aG meshnode") {
            $0.daemon = .cannotConnect(errno: 13, reason: "Permission denied")
        },
        Breakage(name: "a daemon that does not answer", check: .controlSocket, severity: .fail, mentions: "did not answer") {
            $0.daemon = .noReply("timed out after 2 s")
        },
        Breakage(name: "a daemon waiting for bluetoothd", check: .controlSocket, severity: .warn, mentions: "waiting for bluetoothd") {
            $0.daemon = .answered(DaemonStatus(state: "running", transportState: "waiting for bluetoothd (retry in 4 s)",
                                               version: "0.9.0"))
        },
    ]

    @Test("names the broken check, its severity and what to do; every other check stays OK or skipped",
          arguments: breakages)
    func breakage(_ breakage: Breakage) {
        let report = Doctor.diagnose(DoctorFixtures.healthy(breakage.change), setup: DoctorFixtures.setup)
        let finding = report.findings.first { $0.check == breakage.check }!
        #expect(finding.severity == breakage.severity)
        #expect((finding.summary + " " + (finding.fix ?? "")).contains(breakage.mentions), "\(finding)")
        if breakage.severity >= .warn { #expect(finding.fix != nil) }
        #expect(report.worst == (breakage.severity == .skip ? .ok : breakage.severity))
        for other in report.findings where other.check != breakage.check {
            #expect(other.severity <= .skip, "\(other)")
        }
    }

    @Test("both roles pass, with or without central-peripheral (BlueZ 5.66 shows it only with a kernel experiment on)",
          arguments: [["central", "peripheral"], ["central", "peripheral", "central-peripheral"]])
    func bothRoles(_ roles: [String]) {
        let facts = DoctorFixtures.healthy {
            $0.adapter = .present(AdapterState(address: "a", powered: true, roles: roles,
                                               advertising: AdvertisingInstances(supported: 4, active: 1)))
        }
        #expect(DoctorFixtures.finding(.roles, in: facts).severity == .ok)
        #expect(DoctorFixtures.finding(.roles, in: facts).summary.contains(roles.joined(separator: ", ")))
    }

    @Test("central only fails")
    func centralOnly() {
        let facts = DoctorFixtures.healthy {
            $0.adapter = .present(AdapterState(address: "a", powered: true, roles: ["central"],
                                               advertising: AdvertisingInstances(supported: 4, active: 1)))
        }
        #expect(DoctorFixtures.finding(.roles, in: facts).severity == .fail)
    }

    @Test("without bluetoothd the adapter checks are skipped, not failed twice")
    func noBluetoothd() {
        let facts = DoctorFixtures.healthy { $0.bluetoothd = .absent; $0.adapter = .unknown }
        let report = Doctor.diagnose(facts, setup: DoctorFixtures.setup)
        #expect(report.findings.filter { $0.severity == .fail }.map(\.check) == [.bluetoothd])
        for check in [DoctorCheck.adapter, .roles, .advertising] {
            #expect(DoctorFixtures.finding(check, in: facts).severity == .skip)
        }
        #expect(report.exitCode == 78)
    }

    @Test("a powered-off adapter without an advertising manager skips the advertising check")
    func poweredOffWithoutManager() {
        let facts = DoctorFixtures.healthy {
            $0.adapter = .present(AdapterState(address: "a", powered: false, powerState: "off", roles: ["central-peripheral"]))
        }
        #expect(DoctorFixtures.finding(.advertising, in: facts).severity == .skip)
        #expect(DoctorFixtures.finding(.adapter, in: facts).severity == .fail)
    }

    @Test("the set-up's names reach the findings")
    func setupNames() {
        let setup = DoctorSetup(serviceUser: "relay", controlGroup: "chat", adapter: "hci3", stateDirectory: "/srv/mesh")
        let facts = DoctorFixtures.healthy { $0.adapter = .missing(others: []); $0.controlGroupExists = false }
        #expect(DoctorFixtures.finding(.adapter, in: facts, setup: setup).summary == "no adapter hci3 (bluetoothd has no adapter)")
        #expect(DoctorFixtures.finding(.controlGroup, in: facts, setup: setup).summary == "no group chat")
        #expect(DoctorFixtures.finding(.identity, in: facts, setup: setup).severity == .fail)   // owner meshnode, not relay
        #expect(DoctorFixtures.finding(.identity, in: facts, setup: setup).summary.hasPrefix("/srv/mesh/identity.key"))
    }
}
