/// How one doctor check came out, from best to worst.
public enum DoctorSeverity: String, Codable, Sendable, CaseIterable, Comparable {
    /// The check passed.
    case ok
    /// The check could not run here (its subject is absent for a reason another line reports).
    case skip
    /// Something works but deserves the operator's attention.
    case warn
    /// Something stops the node from working; the line says what to do.
    case fail

    /// Orders by badness: ok < skip < warn < fail.
    public static func < (lhs: DoctorSeverity, rhs: DoctorSeverity) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .ok: 0
        case .skip: 1
        case .warn: 2
        case .fail: 3
        }
    }

    /// The label printed at the start of a line: `OK`, `SKIP`, `WARN` or `FAIL`.
    public var label: String { rawValue.uppercased() }
}
