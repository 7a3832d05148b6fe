/// A configuration error that stops start-up: where it is and what is wrong.
///
/// Printed as `meshnoded.conf:12: unknown key 'ttl.mesage' in [relay]`. For command-line
/// flags `file` is the flag and `line` is nil.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file path as given, or the offending flag.
    public var file: String
    /// The 1-based line number, when the error belongs to one line.
    public var line: Int?
    /// What is wrong.
    public var problem: ConfigProblem

    /// Creates an error.
    public init(file: String, line: Int?, problem: ConfigProblem) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// The reason alone, without the location.
    public var reason: String { problem.description }

    /// `file:line: reason`, or `file: reason` without a line.
    public var description: String {
        if let line { return "\(file):\(line): \(reason)" }
        return "\(file): \(reason)"
    }
}
