import ControlProtocol
import Foundation
import MeshTestSupport
import Testing
@testable import RelayctlKit

@Suite("relayctl stats as Prometheus metrics")
struct MetricsFormatterTests {
    static let small = StatsReport(
        uptimeSeconds: 61.5, memory: MemoryReport(residentBytes: 1024, peakResidentBytes: 2048),
        counters: ["message": ["relayed": 7], "join": ["relayed": 3], "engine": ["neighbours": 2],
                   "links": ["links_up": 4]])

    @Test("OpenMetrics names counter families without _total, samples with it, and ends in # EOF")
    func openMetricsText() {
        #expect(MetricsFormatter.render(Self.small, as: .openMetrics) == """
        # HELP meshnode_engine_neighbours The gauge engine.neighbours of relayctl stats.
        # TYPE meshnode_engine_neighbours gauge
        meshnode_engine_neighbours 2
        # HELP meshnode_links_links_up The counter links.links_up of relayctl stats.
        # TYPE meshnode_links_links_up counter
        meshnode_links_links_up_total 4
        # HELP meshnode_memory_peak_resident_bytes Peak resident memory of meshnoded in bytes.
        # TYPE meshnode_memory_peak_resident_bytes gauge
        meshnode_memory_peak_resident_bytes 2048
        # HELP meshnode_memory_resident_bytes Resident memory of meshnoded in bytes.
        # TYPE meshnode_memory_resident_bytes gauge
        meshnode_memory_resident_bytes 1024
        # HELP meshnode_message_relayed The counter relayed of each envelope kind in relayctl stats.
        # TYPE meshnode_message_relayed counter
        meshnode_message_relayed_total{kind="join"} 3
        meshnode_message_relayed_total{kind="message"} 7
        # HELP meshnode_uptime_seconds Seconds since meshnoded started.
        # TYPE meshnode_uptime_seconds gauge
        meshnode_uptime_seconds 61.5
        # EOF

        """)
    }

    @Test("The Prometheus text format names the _total sample in HELP and TYPE and has no # EOF")
    func prometheusText() {
        let text = MetricsFormatter.render(Self.small, as: .prometheus)
        #expect(text.contains("# TYPE meshnode_message_relayed_total counter\nmeshnode_message_relayed_total{kind=\"join\"} 3\n"))
        #expect(text.contains("# TYPE meshnode_engine_neighbours gauge\nmeshnode_engine_neighbours 2\n"))
        #expect(!text.contains("# EOF"))
    }

    @Test("Names are snake case and every odd character becomes an underscore", arguments: [
        ("keyExchange", "key_exchange"), ("links_up", "links_up"), ("weird-name.x", "weird_name_x"), ("", "_"),
        ("ABC", "a_b_c"), ("frames2Lost", "frames2_lost"), ("x-Y", "x_y"),
    ])
    func snakeCase(_ name: String, _ expected: String) {
        #expect(MetricName.snakeCase(name) == expected)
    }

    @Test("The per-kind groups share a family with a kind label; the other groups have their own")
    func families() {
        #expect(MetricName.family(group: "keyExchange", counter: "dropped_ttl") == ("meshnode_message_dropped_ttl", "key_exchange"))
        #expect(MetricName.family(group: "control", counter: "connected_clients") == ("meshnode_control_connected_clients", nil))
        #expect(MetricName.isGauge(group: "control", counter: "connected_clients"))
        #expect(!MetricName.isGauge(group: "engine", counter: "known_nodes_evicted"))
    }

    @Test("Floats that are not finite use the spelling both formats accept")
    func specialFloats() {
        #expect(MetricsFormatter.number(.nan) == "NaN" && MetricsFormatter.number(.infinity) == "+Inf")
        #expect(MetricsFormatter.number(-.infinity) == "-Inf" && MetricsFormatter.number(2) == "2.0")
    }

    @Test("--openmetrics and --prometheus go with stats only, and not with --json", arguments: [
        (["stats", "--openmetrics"], RelayctlCommand.metrics(.openMetrics)),
        (["--prometheus", "stats"], RelayctlCommand.metrics(.prometheus)),
        (["stats"], RelayctlCommand.stats),
    ])
    func arguments(_ arguments: [String], _ command: RelayctlCommand) throws {
        #expect(try RelayctlArguments.parse(arguments, environment: [:]).command == command)
    }

    @Test("A metrics flag on another command, or with --json, is a usage error", arguments: [
        ["peers", "--openmetrics"], ["--json", "stats", "--openmetrics"],
    ])
    func misuse(_ arguments: [String]) {
        #expect(throws: RelayctlUsageError.self) { try RelayctlArguments.parse(arguments, environment: [:]) }
    }
}

@Suite("relayctl stats --openmetrics read by python3-prometheus-client")
struct MetricsParserTests {
    /// A report with every kind of group: per-kind, plain counters, gauges, and one a newer daemon might add.
    static var report: StatsReport {
        var counters: [String: [String: UInt64]] = [:]
        var next: UInt64 = 1
        func add(_ group: String, _ names: [String]) {
            for name in names {
                counters[group, default: [:]][name] = next * 1_000_003
                next += 1
            }
        }
        for kind in ["message", "join", "heartbeat", "profile", "keyExchange"] {
            add(kind, ["received", "relayed", "dropped_seen", "over_share"])
        }
        add("engine", ["seen_cache_ids", "neighbours", "known_nodes_evicted", "held_bytes"])
        add("inbox", ["accepted", "shed_total", "waiting_frames"])
        add("control", ["requests", "connected_clients"])
        add("links", ["links_up", "rekeys"])
        add("transport", ["frames_lost", "links_up"])
        add("newGroup", ["odd-name", "UPPER"])
        return StatsReport(uptimeSeconds: 3725.25, memory: MemoryReport(residentBytes: 12_582_912, peakResidentBytes: 16_777_216),
                           counters: counters)
    }

    /// Runs relayctl (its runner, over a real control socket) against a fake node with `report`.
    static func relayctl(_ command: RelayctlCommand, json: Bool = false) throws -> String {
        let fixture = try ServerFixture()
        defer { fixture.server.stop() }
        fixture.node.statsReport.withLock { $0 = report }
        let output = RelayctlRunnerTests.Output()
        let code = output.runner.run(RelayctlInvocation(command: command, socketPath: fixture.path, json: json))
        #expect(code == .ok && output.stderr.isEmpty)
        return output.stdout
    }

    @Test("Every value of relayctl --json stats is in the parsed metrics under its documented name",
          arguments: [("openmetrics", MetricsFormatter.Exposition.openMetrics), ("prometheus", .prometheus)])
    func parsedByTheRealParser(_ dialect: String, _ exposition: MetricsFormatter.Exposition) throws {
        let directory = try TemporaryDirectory()
        try relayctlOutput(.stats, json: true).write(toFile: directory.path + "/stats.json", atomically: true, encoding: .utf8)
        try relayctlOutput(.metrics(exposition)).write(toFile: directory.path + "/metrics.txt", atomically: true, encoding: .utf8)
        let check = try MetricsCheck.run(dialect: dialect, files: [directory.path + "/stats.json", directory.path + "/metrics.txt"])
        #expect(check.status == 0, "check-metrics.py (needs python3-prometheus-client): \(check.output)")
        #expect(check.output.hasSuffix("38 samples parsed (\(dialect)), 38 expected, 0 problems\n"), "\(check.output)")
    }

    private func relayctlOutput(_ command: RelayctlCommand, json: Bool = false) throws -> String {
        try Self.relayctl(command, json: json)
    }
}
