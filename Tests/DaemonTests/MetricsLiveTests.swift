import Foundation
import MeshTestSupport
import Testing

/// `relayctl stats --openmetrics` of the real binary against running nodes, read by
/// python3-prometheus-client's OpenMetrics parser (scripts/check-metrics.py).
@Suite("relayctl stats --openmetrics of a running node, parsed by a real parser", .serialized)
struct MetricsLiveTests {
    @Test("Every counter of relayctl --json stats is a parsed metric, between the values before and after",
          arguments: [("openmetrics", "--openmetrics"), ("prometheus", "--prometheus")])
    func runningNodeMetricsParse(_ dialect: String, _ flag: String) throws {
        let line = try LineOfNodes(count: 2)
        defer { line.stop() }
        #expect(line.waitUntilLinked())
        let node = line.nodes[1]
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let before = node.ctl("--json", "stats")
        let metrics = node.ctl("stats", flag)
        let after = node.ctl("--json", "stats")
        #expect(before.status == 0 && metrics.status == 0 && after.status == 0, "\(metrics.err)")
        let paths = ["before.json", "metrics.txt", "after.json"].map { folder.url.appendingPathComponent($0).path }
        for (path, text) in zip(paths, [before.out, metrics.out, after.out]) {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let check = try MetricsCheck.run(dialect: dialect, files: paths)
        #expect(check.status == 0, "check-metrics.py (needs python3-prometheus-client): \(check.output)")
        #expect(check.output.contains("expected, 0 problems"), "\(check.output)")
    }
}
