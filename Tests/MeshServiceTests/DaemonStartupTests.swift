import Foundation
import MeshTestSupport
import Testing
@testable import MeshService

@Suite("meshnoded start-up decisions")
struct DaemonStartupTests {
    @Test func badFlagIsAUsageErrorAndBadValueAConfigError() {
        guard case .exit(64, "", let unknown) = DaemonStartup.prepare(["--nope=1"]) else {
            Issue.record("unknown flag must exit 64")
            return
        }
        #expect(unknown.hasPrefix("meshnoded: --nope=1: unknown option"))
        #expect(DaemonStartup.prepare(["--udp-port=x", "--config=/nonexistent/a.conf"])
            == .exit(code: 78, output: "", error: "meshnoded: /nonexistent/a.conf: cannot read: No such file or directory\n"))
    }

    @Test func checkPrintHelpVersionAndRun() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/meshnoded.conf"
        try "[udp]\nport = 7009\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(DaemonStartup.prepare(["-c", path, "--check-config"]) == .exit(code: 0, output: "configuration OK\n", error: ""))
        guard case .exit(0, let printed, "") = DaemonStartup.prepare(["-c", path, "--print-config", "--mtu=99"]) else {
            Issue.record("print-config must exit 0")
            return
        }
        #expect(printed.contains("\nport = 7009\n") && printed.contains("\nmtu = 99\n") && printed.contains("\ncontrol_socket =\n"))
        #expect(printed.hasPrefix("# read from \(path), then 1 command-line flag(s)\n[node]\n"))
        #expect(DaemonStartup.prepare(["--version"])
            == .exit(code: 0, output: "meshnoded \(DaemonVersion.current) (mesh protocol 1)\n", error: ""))
        guard case .run(let config, let invocation) = DaemonStartup.prepare(["-c", path, "--name", "Hall"]) else {
            Issue.record("a valid configuration must run")
            return
        }
        #expect(config.udp.port == 7009 && config.node.name == "Hall" && invocation.configPath == path)
        let error = "meshnoded: \(path):1: unknown section [nope]\n"
        try "[nope]\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(DaemonStartup.prepare(["-c", path]) == .exit(code: 78, output: "", error: error))
    }
}
