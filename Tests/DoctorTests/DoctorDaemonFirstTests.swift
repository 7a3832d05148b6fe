import Testing
import Doctor

/// The doctor judges what the running daemon says it uses (issue 33, item 5): a healthy UDP node
/// started by hand is not failed for Bluetooth, the unit, or the package's user and group.
@Suite("doctor: the daemon's own answer first")
struct DoctorDaemonFirstTests {
    static let runs = DaemonRuns(transport: "udp", stateDirectory: "/home/alice/mesh", user: "alice", pid: 4242,
                                 systemd: false, configFile: nil)

    /// A UDP node run by hand by alice: no bluetoothd, no policy, no meshnode user or group, no unit.
    static let byHand = DoctorFixtures.healthy {
        $0.bluetoothd = .absent
        $0.adapter = .unknown
        $0.dbusPolicy = .missing(searched: ["/usr/share/dbus-1/system.d"])
        $0.serviceUserExists = false
        $0.controlGroupExists = false
        $0.stateDirectory = .present(FileStatus(kind: .directory, mode: 0o700, owner: "alice"))
        $0.identity = .present(FileStatus(kind: .regular, mode: 0o600, owner: "alice"))
        $0.unit = .notInstalled
        $0.daemon = .answered(DaemonStatus(state: "running", version: "0.1.0",
                                           meshClock: MeshClockFact(synchronised: true, offsetMilliseconds: 0, votes: 2), runs: runs))
    }

    @Test("a healthy UDP node run by hand has no FAIL and no WARN")
    func udpByHandIsOK() {
        let setup = DoctorSetup(controlSocket: "/tmp/n1/control.sock").adopting(Self.runs)
        let report = Doctor.diagnose(Self.byHand, setup: setup)
        #expect(report.worst == .ok && report.exitCode == 0, "\(report.text)")
        for check in DoctorCheck.bluetooth {
            #expect(DoctorFixtures.finding(check, in: Self.byHand, setup: setup).summary == "not used: meshnoded runs on udp")
        }
        #expect(DoctorFixtures.finding(.unit, in: Self.byHand, setup: setup).summary.hasPrefix("meshnoded runs by hand (pid 4242"))
        #expect(DoctorFixtures.finding(.serviceUser, in: Self.byHand, setup: setup).summary == "meshnoded runs as user alice (pid 4242)")
        #expect(DoctorFixtures.finding(.controlSocket, in: Self.byHand, setup: setup).summary
            == "meshnoded 0.1.0 answers: running on udp, user alice, pid 4242, config none (defaults and flags)")
    }

    @Test("without the daemon's answer the same facts still fail: the configuration's BlueZ set-up is judged")
    func withoutTheDaemonTheSetupIsTheConfiguration() {
        let facts = DoctorFixtures.healthy {
            $0.bluetoothd = .absent
            $0.daemon = .cannotConnect(errno: 2, reason: "No such file or directory")
        }
        #expect(Doctor.diagnose(facts, setup: DoctorSetup()).worst == .fail)
        // A configuration naming UDP skips Bluetooth even with no daemon to ask.
        let udp = DoctorSetup(transport: "udp")
        #expect(DoctorFixtures.finding(.bluetoothd, in: facts, setup: udp).severity == .skip)
    }

    @Test("Bluetooth is checked when one of the transports is BlueZ, and skipped when every one is UDP",
          arguments: [("udp", false), ("lan", false), ("udp,lan", false), ("bluez", true), ("bluez,udp", true), ("udp,bluez", true)])
    func bluetoothChecksFollowTheTransportList(transport: String, checked: Bool) {
        let facts = DoctorFixtures.healthy { $0.bluetoothd = .absent }
        let severity = DoctorFixtures.finding(.bluetoothd, in: facts, setup: DoctorSetup(transport: transport)).severity
        #expect((severity != .skip) == checked, "\(transport): \(severity)")
    }

    @Test("the state directory the daemon uses is judged against the user it runs as")
    func stateDirectoryOwnerIsTheDaemonsUser() {
        let setup = DoctorSetup().adopting(Self.runs)
        let foreign = DoctorFixtures.healthy { $0.stateDirectory = .present(FileStatus(kind: .directory, mode: 0o700, owner: "meshnode")) }
        let finding = DoctorFixtures.finding(.stateDirectory, in: foreign, setup: setup)
        #expect(finding.severity == .fail && finding.summary == "/home/alice/mesh belongs to meshnode, not alice")
    }
}
