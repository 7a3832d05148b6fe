import ControlProtocol
import Doctor
import Foundation
import MeshConfig
import MeshTestSupport
import Testing
@testable import MeshService
@testable import RelayctlKit

@Suite("relayctl doctor: arguments, configuration, control socket")
struct RelayctlDoctorTests {
    @Test("command lines", arguments: [
        (["doctor"], [String: String](), RelayctlCommand.doctor(config: nil, socket: nil)),
        (["doctor", "--config", "/etc/m.conf"], [:], .doctor(config: "/etc/m.conf", socket: nil)),
        (["-c=/etc/m.conf", "doctor"], [:], .doctor(config: "/etc/m.conf", socket: nil)),
        (["--socket", "/tmp/s", "doctor"], [:], .doctor(config: nil, socket: "/tmp/s")),
        (["doctor"], ["RELAYCTL_SOCKET": "/tmp/e"], .doctor(config: nil, socket: "/tmp/e")),
    ])
    func commandLines(_ arguments: [String], _ environment: [String: String], _ expected: RelayctlCommand) throws {
        #expect(try RelayctlArguments.parse(arguments, environment: environment).command == expected)
    }

    @Test("--config belongs to doctor only, and doctor takes no words", arguments: [
        (["status", "--config", "/x"], "--config only applies to doctor"), (["doctor", "now"], "doctor takes no arguments"),
    ])
    func usage(_ arguments: [String], _ message: String) {
        #expect(throws: RelayctlUsageError(message, command: arguments[0])) {
            try RelayctlArguments.parse(arguments, environment: [:])
        }
    }

    @Test("the set-up comes from meshnoded's configuration file; --socket wins over its socket")
    func setupFromConfig() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/meshnoded.conf"
        try "[node]\nstate_directory = /srv/mesh\ncontrol_group = chat\nruntime_directory = /run/m\n[bluez]\nadapter = hci3\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let setup = try DoctorGatherer.setup(configPath: path, socketOverride: nil)
        #expect(setup.stateDirectory == "/srv/mesh" && setup.identityFile == "/srv/mesh/identity.key")
        #expect(setup.controlGroup == "chat" && setup.adapter == "hci3" && setup.controlSocket == "/run/m/control.sock")
        #expect(try DoctorGatherer.setup(configPath: path, socketOverride: "/tmp/s").controlSocket == "/tmp/s")
        #expect(throws: ConfigError.self) { try DoctorGatherer.setup(configPath: directory.path + "/none.conf", socketOverride: nil) }
    }

    @Test("a bad configuration file exits 78 with its reason")
    func badConfig() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/meshnoded.conf"
        try "[node]\nstate_directory = relative\n".write(toFile: path, atomically: true, encoding: .utf8)
        let output = RelayctlRunnerTests.Output()
        #expect(output.runner.doctor(configPath: path, socket: nil, json: false) == .doctorFail)
        #expect(output.stderr.hasPrefix("relayctl: \(path):2:") && output.stdout.isEmpty)
    }

    @Test("the daemon's status is read over the control socket; no socket is ENOENT")
    func daemonFact() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        #expect(DoctorDaemonProbe.fact(socket: fixture.path)
            == .answered(DaemonStatus(state: "running", transportState: nil, version: "0.1.0")))
        guard case .cannotConnect(let code, _) = DoctorDaemonProbe.fact(socket: fixture.directory.path + "/none.sock") else {
            Issue.record("a missing socket is not cannotConnect")
            return
        }
        #expect(code == ENOENT)
    }

    @Test("the status's clock is read as the mesh clock; a status without one has none")
    func meshClockField() throws {
        let line = #"{"id":1,"ok":true,"result":{"state":"running","version":"0.9","transportState":"running on hci0","#
            + #""clock":{"synchronised":true,"offsetMilliseconds":259200500,"votes":7}}}"#
        let reply = try JSONDecoder().decode(DoctorStatusLine.self, from: Data(line.utf8))
        #expect(reply.result?.meshClock == MeshClockFact(synchronised: true, offsetMilliseconds: 259_200_500, votes: 7))
        let bare = #"{"id":1,"ok":true,"result":{"state":"running","version":"0.9"}}"#
        #expect(try JSONDecoder().decode(DoctorStatusLine.self, from: Data(bare.utf8)).result?.meshClock == nil)
        #expect(reply.result?.transportState == "running on hci0")
        let refused = try JSONDecoder().decode(DoctorStatusLine.self,
                                               from: Data(#"{"id":1,"ok":false,"error":{"code":"x","message":"no"}}"#.utf8))
        #expect(!refused.ok && refused.error == "no" && refused.result == nil)
    }

    @Test("--json prints a report that decodes, one finding per check, and the exit code follows its worst line")
    func json() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let path = fixture.directory.path + "/meshnoded.conf"
        try "[node]\nstate_directory = \(fixture.directory.path)/state\n".write(toFile: path, atomically: true, encoding: .utf8)
        let output = RelayctlRunnerTests.Output()
        let code = output.runner.doctor(configPath: path, socket: fixture.path, json: true)
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(output.stdout.utf8))
        #expect(report.findings.map(\.check) == DoctorCheck.allCases)
        #expect(report.findings.first { $0.check == .controlSocket }?.severity == .ok)
        #expect(report.findings.first { $0.check == .stateDirectory }?.severity == .warn)   // not there yet
        #expect(code.rawValue == report.exitCode && code != .ok)
        #expect(output.stdout.hasSuffix("}\n") && output.stdout.filter { $0 == "\n" }.count == 1)
    }
}
