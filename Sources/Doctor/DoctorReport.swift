/// Every finding of one doctor run and the worst of them (what the exit code follows).
public struct DoctorReport: Codable, Equatable, Sendable {
    /// The worst severity among the findings, a skip counting as `ok`: `ok`, `warn` or `fail`.
    public var worst: DoctorSeverity
    /// The findings in ``DoctorCheck`` order.
    public var findings: [DoctorFinding]

    /// Creates a report; `worst` is computed.
    public init(findings: [DoctorFinding]) {
        self.findings = findings
        self.worst = findings.map { $0.severity == .skip ? .ok : $0.severity }.max() ?? .ok
    }

    /// The exit code for the worst severity: 0 ok, 75 warn (EX_TEMPFAIL), 78 fail (EX_CONFIG).
    public var exitCode: Int32 {
        switch worst {
        case .ok, .skip: 0
        case .warn: 75
        case .fail: 78
        }
    }

    /// The human form: one `LABEL  check  summary` line per finding, the fix indented below it.
    public var text: String {
        let width = DoctorCheck.allCases.map(\.rawValue.count).max() ?? 0
        var lines: [String] = []
        for finding in findings {
            lines.append("\(finding.severity.label.padding(to: 4))  \(finding.check.rawValue.padding(to: width))  \(finding.summary)")
            if let fix = finding.fix { lines.append(String(repeating: " ", count: width + 8) + "-> " + fix) }
        }
        let counts = DoctorSeverity.allCases.compactMap { severity -> String? in
            let count = findings.filter { $0.severity == severity }.count
            return count == 0 ? nil : "\(count) \(severity.label)"
        }
        lines.append("")
        lines.append("worst: \(worst.label) (\(counts.joined(separator: ", ")))")
        return lines.joined(separator: "\n") + "\n"
    }
}
