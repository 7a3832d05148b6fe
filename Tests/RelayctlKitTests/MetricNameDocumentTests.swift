import Foundation
import Testing
@testable import RelayctlKit

/// docs/CONTROL.md's "Metrics" table is the one list of the kind groups and the gauges:
/// `scripts/check-metrics.py` reads them from it, and `MetricName` must say the same.
@Suite("MetricName against docs/CONTROL.md")
struct MetricNameDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The backticked names of the first column of the table row whose other cells satisfy `matches`.
    static func names(inRowWhere matches: (_ metric: String, _ type: String) -> Bool) throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("docs/CONTROL.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Metrics\n").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
        for line in section.split(separator: "\n") {
            let cells = line.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "|"))
                .components(separatedBy: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, matches(cells[1], cells[2]) else { continue }
            let parts = cells[0].components(separatedBy: "`")
            return Set(stride(from: 1, to: parts.count, by: 2).map { parts[$0] })
        }
        return []
    }

    @Test("the gauges are the table's")
    func gauges() throws {
        let documented = try Self.names { metric, type in metric == "`meshnode_<group>_<counter>`" && type == "gauge" }
        #expect(!documented.isEmpty)
        #expect(MetricName.gauges == documented)
    }

    @Test("the kind groups are the table's")
    func kindGroups() throws {
        let documented = try Self.names { metric, _ in metric.hasPrefix("`meshnode_message_<counter>_total") }
            .filter { !$0.contains(".") && !$0.contains("<") }
        #expect(MetricName.kindGroups == documented)
    }
}
