/// One meaningful line of meshnoded.conf.
public struct ConfigStatement: Equatable, Sendable {
    /// What a line says.
    public enum Content: Equatable, Sendable {
        /// A `[section]` header.
        case section(String)
        /// A `key = value` setting, both trimmed.
        case setting(key: String, value: String)
        /// A line that breaks the syntax or the limits.
        case invalid(ConfigProblem)
    }

    /// The 1-based line number.
    public var line: Int
    /// What the line says.
    public var content: Content

    /// Creates a statement.
    public init(line: Int, content: Content) {
        self.line = line
        self.content = content
    }
}
