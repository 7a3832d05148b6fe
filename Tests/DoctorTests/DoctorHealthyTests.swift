import Doctor
import Testing

@Suite("A healthy node")
struct DoctorHealthyTests {
    @Test("gets one OK line per check, in order, and exit code 0 (on Bluetooth and a LAN)")
    func allOK() {
        let report = Doctor.diagnose(DoctorFixtures.healthy, setup: DoctorFixtures.lanSetup)
        #expect(report.findings.map(\.check) == DoctorCheck.allCases)
        #expect(report.findings.allSatisfy { $0.severity == .ok && $0.fix == nil })
        #expect(report.worst == .ok)
        #expect(report.exitCode == 0)
    }

    @Test("a lone node whose own clock is synchronised is fine without mesh time", arguments: [0, 1])
    func loneNodeWithSynchronisedClock(votes: Int) throws {
        var facts = DoctorFixtures.healthy
        facts.daemon = .answered(DaemonStatus(state: "running", version: "0.9.0",
                                              meshClock: MeshClockFact(synchronised: false, offsetMilliseconds: 0, votes: votes)))
        let finding = try #require(Doctor.diagnose(facts, setup: DoctorFixtures.setup).findings.first { $0.check == .meshClock })
        #expect(finding.severity == .ok)
        #expect(finding.summary.contains("which is synchronised"))
    }

    @Test("a node with neither mesh time nor a synchronised clock is warned on both lines", arguments: [0, 1])
    func noTimeAtAll(votes: Int) {
        var facts = DoctorFixtures.healthy
        facts.clock = ClockFact(synchronised: false, year: 2026, shown: "2026-12-03 07:45:12")
        facts.daemon = .answered(DaemonStatus(state: "running", version: "0.9.0",
                                              meshClock: MeshClockFact(synchronised: false, offsetMilliseconds: 0, votes: votes)))
        let findings = Doctor.diagnose(facts, setup: DoctorFixtures.setup).findings
        #expect(findings.filter { $0.severity == .warn }.map(\.check) == [.clock, .meshClock])
        let mesh = findings.first { $0.check == .meshClock }
        #expect(mesh?.summary.contains(votes == 1 ? "1 neighbour heard" : "0 neighbours heard") == true)
        #expect(mesh?.fix?.contains("timedatectl") == true)
    }

    @Test("prints each line with its label, the fixes indented, and the worst result last")
    func text() {
        let report = DoctorReport(findings: [
            DoctorFinding(.bluetoothd, .ok, "bluetoothd 5.66 on the system bus"),
            DoctorFinding(.adapter, .fail, "hci0 is powered off", fix: "bluetoothctl power on"),
        ])
        let lines = report.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "OK    bluetoothd       bluetoothd 5.66 on the system bus")
        #expect(lines[1] == "FAIL  adapter          hci0 is powered off")
        #expect(lines[2] == "                       -> bluetoothctl power on")
        #expect(lines[4] == "worst: FAIL (1 OK, 1 FAIL)")
    }

    @Test("exit code follows the worst severity: skip counts as OK", arguments: [
        (DoctorSeverity.ok, Int32(0)), (.skip, 0), (.warn, 75), (.fail, 78),
    ])
    func exitCode(severity: DoctorSeverity, code: Int32) {
        let report = DoctorReport(findings: [DoctorFinding(.clock, .ok, "fine"), DoctorFinding(.unit, severity, "x")])
        #expect(report.worst == (severity == .skip ? .ok : severity))
        #expect(report.exitCode == code)
    }

    @Test("reads BlueZ's version from an adapter's Modalias", arguments: [
        ("usb:v1D6Bp0246d0542", "5.66"), ("usb:v1d6bp0246d0540", "5.64"), ("bluetooth:v000Fp1200d1436", nil),
        ("usb:v1D6Bp0246d05", nil), ("usb:v1D6Bp0246dZZZZ", nil),
    ])
    func version(modalias: String, expected: String?) {
        #expect(BlueZVersion(modalias: modalias)?.description == expected)
    }
}
