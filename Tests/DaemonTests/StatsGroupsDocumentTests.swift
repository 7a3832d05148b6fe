import ControlProtocol
import Foundation
import Testing

/// The counter groups table of docs/CONTROL.md ("Counter groups"): each row's first cell names
/// one or more groups, its second cell the counters every one of them holds.
struct DocumentedCounterGroups {
    /// Counter names by group, as the document lists them.
    let groups: [String: Set<String>]

    /// Reads the table from docs/CONTROL.md in this checkout.
    static func load() throws -> DocumentedCounterGroups {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/CONTROL.md"), encoding: .utf8)
        return DocumentedCounterGroups(parsing: text)
    }

    /// Parses the rows that follow the `### Counter groups` heading, up to the first line after
    /// the table that is not a row.
    init(parsing text: String) {
        var groups: [String: Set<String>] = [:]
        var inSection = false
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                inSection = line == "### Counter groups"
                continue
            }
            guard inSection else { continue }
            guard line.hasPrefix("|") else {
                if inTable { break }
                continue
            }
            inTable = true
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 3 else { continue }
            let names = Self.codeSpans(cells[1])
            guard !names.isEmpty else { continue }  // the header and its rule
            let counters = Set(Self.codeSpans(cells[2]))
            for name in names { groups[name, default: []].formUnion(counters) }
        }
        self.groups = groups
    }

    /// The text of every `code` span in `cell`.
    static func codeSpans(_ cell: Substring) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}

@Suite("docs/CONTROL.md lists exactly the counter groups of relayctl --json stats", .serialized)
struct StatsGroupsDocumentTests {
    @Test("Every documented group and counter exists on a running node, and nothing else does")
    func documentMatchesRunningNode() throws {
        let documented = try DocumentedCounterGroups.load()
        #expect(documented.groups.count >= 8, "the Counter groups table of docs/CONTROL.md was not found")

        let line = try LineOfNodes(count: 2)
        defer { line.stop() }
        #expect(line.waitUntilLinked())
        var report: StatsReport?
        #expect(eventually { report = line.nodes[1].json(StatsReport.self, "stats"); return report != nil })
        let counters = try #require(report).counters

        #expect(Set(counters.keys) == Set(documented.groups.keys))
        for (group, names) in documented.groups.sorted(by: { $0.key < $1.key }) {
            let actual = Set(counters[group]?.keys.map { $0 } ?? [])
            #expect(actual.subtracting(names).isEmpty, "in \(group), not documented: \(actual.subtracting(names).sorted())")
            #expect(names.subtracting(actual).isEmpty, "in \(group), documented but absent: \(names.subtracting(actual).sorted())")
        }
    }
}
