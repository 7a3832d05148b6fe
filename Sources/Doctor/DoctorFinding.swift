/// One line of the doctor's report: a check, how it came out, what was seen and what to do.
public struct DoctorFinding: Codable, Equatable, Sendable {
    /// Which check.
    public var check: DoctorCheck
    /// How it came out.
    public var severity: DoctorSeverity
    /// What was seen, in one sentence.
    public var summary: String
    /// What to do about it; nil when nothing needs doing.
    public var fix: String?

    /// Creates a finding.
    public init(_ check: DoctorCheck, _ severity: DoctorSeverity, _ summary: String, fix: String? = nil) {
        self.check = check
        self.severity = severity
        self.summary = summary
        self.fix = fix
    }
}
