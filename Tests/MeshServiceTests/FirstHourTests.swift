import ControlProtocol
import Foundation
import Glibc
import MeshConfig
import MeshProtocol
import MeshTestSupport
import Testing
@testable import MeshService
@testable import RelayctlKit

/// The operator's first hour (issue 33): the health word, what a reload could not apply, errors
/// that say what to do, and relayctl's output (watch, stats, peers, --version, colour, help).
@Suite("first hour: health, reload, socket errors, relayctl output")
struct FirstHourTests {
    let formatter = ReportFormatter(clock: { _ in "12:00:00" })

    @Test("the health word and its reasons", arguments: [
        (RuntimeState.running, String?.none, 2, String?.none, [String](), false, "ok", [String]()),
        (.running, nil, 0, nil, [], false, "degraded", ["no neighbours"]),
        (.running, "running on hci0", 1, "reconnecting", ["udp.port"], true, "degraded",
         ["mqtt reconnecting", "restart needed for: udp.port", "last reload refused"]),
        (.running, "waiting for bluetoothd (retry in 4 s)", 0, nil, [], false, "down",
         ["transport: waiting for bluetoothd (retry in 4 s)", "no neighbours"]),
        (.starting, nil, 3, nil, [], false, "down", ["meshnoded is starting"]),
    ])
    func health(_ state: RuntimeState, _ transport: String?, _ neighbours: Int, _ bridge: String?, _ restart: [String],
                _ refused: Bool, _ word: String, _ reasons: [String]) {
        var reload = ReloadOutcome()
        reload.restartNeededFor = restart
        if refused { reload.refused("bad line") }
        let health = NodeHealth.judge(state: state, transportState: transport, neighbours: neighbours, bridge: bridge, reload: reload)
        #expect(health.word.rawValue == word && health.reasons == reasons)
    }

    @Test("With several transports, one that is not running leaves the node degraded; none running, down")
    func healthWithSeveralTransports() {
        let waiting = "waiting for bluetoothd (retry in 4 s)"
        let one = NodeHealth.judge(state: .running, transports: [("bluez", waiting), ("lan", nil)], neighbours: 1, bridge: nil,
                                   reload: ReloadOutcome())
        #expect(one.word == .degraded && one.reasons == ["bluez: \(waiting)"])
        let both = NodeHealth.judge(state: .running, transports: [("bluez", waiting), ("lan", "waiting for eth0")], neighbours: 0,
                                    bridge: nil, reload: ReloadOutcome())
        #expect(both.word == .down && both.reasons == ["bluez: \(waiting)", "lan: waiting for eth0", "no neighbours"])
        let running = NodeHealth.judge(state: .running, transports: [("bluez", "running on hci0"), ("udp", nil)], neighbours: 2,
                                       bridge: nil, reload: ReloadOutcome())
        #expect(running.word == .ok && running.reasons.isEmpty)
    }

    @Test("a reload names what only a restart applies; log level and hop limits apply at once")
    func reloadNamesWhatWaits() throws {
        let running = try ConfigLoader.parse("[udp]\nport = 7001\n", file: "a.conf")
        let moved = try ConfigLoader.parse("[udp]\nport = 7002\n[node]\nlog_level = debug\n[relay]\nttl.message = 3\n", file: "a.conf")
        var outcome = ReloadOutcome()
        outcome.loaded(moved, running: running)
        #expect(outcome.restartNeededFor == ["udp.port"])
        #expect(outcome.logLine == "reloaded log level and relay table; restart needed for: udp.port")
        outcome.refused("a.conf:3: syntax error")
        #expect(outcome.restartNeededFor == ["udp.port"] && outcome.logLine.hasPrefix("reload refused"))
        outcome.loaded(running, running: running)
        #expect(outcome == ReloadOutcome() && outcome.logLine == "reloaded log level and relay table")
    }

    @Test("status leads with the health word, names the file and what a reload could not apply; its JSON adds, never renames")
    func statusLines() throws {
        var report = FakeNode().status()
        report.health = "degraded"
        report.healthReasons = ["no neighbours", "restart needed for: udp.port"]
        report.configFile = "/etc/meshnoded/meshnoded.conf"
        report.restartNeededFor = ["udp.port"]
        report.reloadError = "x.conf:3: syntax error"
        let text = formatter.status(report)
        #expect(text.hasPrefix("health       degraded: no neighbours; restart needed for: udp.port\nnode "))
        #expect(text.contains("\nconfig       /etc/meshnoded/meshnoded.conf\n"))
        #expect(text.contains("\nreload       restart needed for: udp.port\n") && text.contains("\nreload       last reload refused: x.conf:3"))
        let painted = ReportFormatter(colour: true).status(report)
        #expect(painted.hasPrefix("health       \u{1b}[33mdegraded\u{1b}[0m: no neighbours"))
        let json = String(decoding: ControlJSON.line(report), as: UTF8.self)
        for key in ["\"nodeID\"", "\"shortID\"", "\"state\"", "\"transport\"", "\"health\":\"degraded\"", "\"restartNeededFor\":[\"udp.port\"]"] {
            #expect(json.contains(key))
        }
        // An older daemon's status has no health: no health line, no config line.
        #expect(formatter.status(FakeNode().status()).hasPrefix("node "))
    }

    @Test("colour only on a terminal and never with NO_COLOR", arguments: [
        (true, [String: String](), true), (false, [:], false), (true, ["NO_COLOR": "1"], false), (true, ["NO_COLOR": ""], true),
        (true, ["TERM": "dumb"], false),
    ])
    func colour(_ terminal: Bool, _ environment: [String: String], _ expected: Bool) {
        #expect(ReportFormatter.wantsColour(isTerminal: terminal, environment: environment) == expected)
        #expect(ReportFormatter(colour: false).painted("ok", "ok") == "ok")
    }

    @Test("watch: names, 1 hop, → me, the peer of a link that goes down")
    func watchLines() throws {
        let me = try #require(NodeID(hex: "00112233445566778899aabbccddeeff"))
        let kitchen = try #require(NodeID(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"))
        var view = WatchView(me: me)
        view.learn(FakeNode().peers())
        let id = FakeNode.messageID
        #expect(formatter.event(.message(id: id, from: kitchen, to: me, hops: 1, text: "hi", time: 0), view: &view)
            == "12:00:00 message a0a1a2a3 Kitchen → me (1 hop): hi\n")
        #expect(formatter.event(.message(id: id, from: me, to: nil, hops: 3, text: "x", time: 0), view: &view)
            == "12:00:00 message 00112233 → everyone (3 hops): x\n")
        #expect(formatter.event(.linkDown(link: 3, reason: "silent for 4s", transport: "udp", time: 0), view: &view)
            == "12:00:00 link udp #3 (127.0.0.1:7002, a0a1a2a3 Kitchen) down: silent for 4s\n")
        // Two transports' links of one number are two links.
        #expect(formatter.event(.linkUp(link: 5, role: "central", address: "127.0.0.1:7101", transport: "lan", time: 0), view: &view)
            == "12:00:00 link lan #5 up: central 127.0.0.1:7101\n")
        #expect(formatter.event(.linkUp(link: 5, role: "peripheral", address: "127.0.0.1:7001", transport: "udp", time: 0), view: &view)
            == "12:00:00 link udp #5 up: peripheral 127.0.0.1:7001\n")
        #expect(formatter.event(.linkDown(link: 5, reason: "closed", transport: "lan", time: 0), view: &view)
            == "12:00:00 link lan #5 (127.0.0.1:7101) down: closed\n")
        #expect(formatter.event(.linkUp(link: 4, role: "central", address: "127.0.0.1:7003", time: 0), view: &view)
            == "12:00:00 link #4 up: central 127.0.0.1:7003\n")
        #expect(formatter.event(.linkDown(link: 4, reason: "closed", time: 0), view: &view)
            == "12:00:00 link #4 (127.0.0.1:7003) down: closed\n")
        #expect(formatter.watchHeader(FakeNode().status())
            == "watching 00112233 Hallway (1 neighbour, 2 known further away); Ctrl-C to stop\n")
    }

    @Test("stats hides zero counters, filters groups, humanises bytes and shows rates")
    func statsView() {
        let report = StatsReport(uptimeSeconds: 100, memory: MemoryReport(residentBytes: 1 << 20, peakResidentBytes: 1 << 20),
                                 counters: ["links": ["links_up": 200, "links_down": 0], "engine": ["held_bytes": 3 << 20],
                                            "control": ["requests": 0]])
        let text = formatter.stats(report)
        #expect(text.contains("links   links_up        200  2.0/s\n") && !text.contains("links_down"))
        #expect(text.contains("engine  held_bytes  3.0 MiB      -\n"))
        #expect(text.hasSuffix("\n2 counters at zero not shown (relayctl stats --all shows them)\n"))
        let all = formatter.stats(report, groups: ["links"], all: true)
        #expect(all.contains("links_down") && !all.contains("engine") && !all.contains("not shown"))
        #expect(RelayctlRunner.only(["control"], of: report).counters.keys.sorted() == ["control"])
        #expect(ReportFormatter.rate(30, over: 3600) == "30/h" && ReportFormatter.rate(1, over: 86_400) == "< 1/h")
    }

    @Test("stats takes group names and --all; --version stands alone", arguments: [
        (["stats", "links", "engine"], RelayctlInvocation(command: .stats, statsGroups: ["links", "engine"])),
        (["stats", "--all"], RelayctlInvocation(command: .stats, statsAll: true)),
        (["--version"], RelayctlInvocation(command: .version)),
    ])
    func arguments(_ arguments: [String], _ expected: RelayctlInvocation) throws {
        #expect(try RelayctlArguments.parse(arguments, environment: [:]) == expected)
    }

    @Test("--all belongs to stats; a metrics format takes no groups", arguments: [
        (["peers", "--all"], "--all only applies to stats"),
        (["stats", "--prometheus", "links"], "a metrics format prints every group: no group names, no --all"),
        (["status", "--version"], "--version takes no command"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        #expect(throws: RelayctlUsageError(message, command: arguments[0])) {
            try RelayctlArguments.parse(arguments, environment: [:])
        }
    }

    @Test("an unknown stats group exits 64 naming the groups")
    func unknownGroup() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = RelayctlRunnerTests.Output()
        let code = output.runner.run(RelayctlInvocation(command: .stats, socketPath: fixture.path, statsGroups: ["frob"]))
        #expect(code == .usage && output.stderr.hasPrefix("relayctl: no counter group frob; the groups are: control message"))
    }

    @Test("--version prints the version and the mesh protocol version")
    func version() {
        let output = RelayctlRunnerTests.Output()
        #expect(output.runner.run(RelayctlInvocation(command: .version)) == .ok)
        #expect(output.stdout == "relayctl \(ProductVersion.current) (mesh protocol 1)\n")
    }

    @Test("a socket error says what to do", arguments: [
        (SocketPathKind.missing, ENOENT, "is meshnoded running? systemctl status meshnoded"),
        (.socket(group: "meshnode"), EACCES, "sudo usermod -aG meshnode $USER, then log in again"),
        (.socket(group: "meshnode"), ECONNREFUSED, "nobody listens on it"),
        (.directory(containsSocket: "/run/m/control.sock"), ECONNREFUSED, "/run/m is a directory, not the socket: --socket /run/m/control.sock"),
        (.other, ECONNREFUSED, "/run/m is not a socket"),
    ])
    func socketErrors(_ kind: SocketPathKind, _ code: Int32, _ advice: String) throws {
        let fix = try #require(kind.fix(path: "/run/m", errno: code))
        #expect(fix.contains(advice))
    }

    @Test("a directory given as --socket is named as one, with the socket inside it")
    func directoryAsSocket() throws {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        let output = RelayctlRunnerTests.Output()
        #expect(output.runner.run(RelayctlInvocation(command: .status, socketPath: fixture.directory.path)) == .unavailable)
        #expect(output.stderr.contains("is a directory, not the socket"))
        let missing = RelayctlRunnerTests.Output()
        _ = missing.runner.run(RelayctlInvocation(command: .status, socketPath: fixture.directory.path + "/none.sock"))
        #expect(missing.stderr.contains("\n  -> is meshnoded running? systemctl status meshnoded"))
    }

    @Test("help: send lists --to, mailbox the messages waiting for a key, the synopsis --version")
    func helpTexts() {
        #expect(RelayctlHelp.text("send").contains("--to NODE"))
        #expect(RelayctlHelp.text("mailbox").contains("for a recipient's key"))
        #expect(RelayctlHelp.text(nil).contains("--version"))
        #expect(RelayctlHelp.text("stats").contains("--all"))
    }

    @Test("peers shows a neighbour in its departure grace as departing")
    func departingNeighbour() throws {
        let kitchen = try #require(NodeID(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"))
        let report = PeersReport(neighbours: [NeighbourReport(nodeID: kitchen, profile: nil, links: [], lastHeardSecondsAgo: 3,
                                                              departing: true)], remote: [])
        #expect(formatter.peers(report).contains("a0a1a2a3  ?     ?     departing  -        -     -  3s ago\n"))
        #expect(String(decoding: ControlJSON.line(report), as: UTF8.self).contains("\"state\":\"departing\""))
    }

    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    @Test("OPERATIONS.md's local-mesh recipe names as neighbours only ports it starts")
    func localMeshRecipe() throws {
        let guide = try String(contentsOf: Self.docs.appendingPathComponent("OPERATIONS.md"), encoding: .utf8)
        let start = try #require(guide.range(of: "## Running a local mesh over UDP"))
        let section = guide[start.upperBound...].prefix { _ in true }.components(separatedBy: "\n## ")[0]
        let words = section.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\\" }).map(String.init)
        var started: Set<String> = []
        var named: Set<String> = []
        for (word, next) in zip(words, words.dropFirst()) {
            if word == "--udp-port" { started.insert(next) }
            if word == "--neighbours" { named.formUnion(next.split(separator: ",").map { String($0.split(separator: ":").last!) }) }
        }
        #expect(!named.isEmpty && named.isSubset(of: started), "neighbours \(named.sorted()), started \(started.sorted())")
    }

    @Test("CONTROL.md's relayctl synopsis names every command")
    func controlSynopsis() throws {
        let control = try String(contentsOf: Self.docs.appendingPathComponent("CONTROL.md"), encoding: .utf8)
        let start = try #require(control.range(of: "## relayctl\n"))
        let synopsis = control[start.upperBound...].components(separatedBy: "\n\n")[0]
        for command in ControlCommand.allCases {
            #expect(synopsis.contains(" \(command.rawValue)"), "the synopsis lacks \(command.rawValue)")
        }
        #expect(synopsis.contains("--version"))
    }
}
