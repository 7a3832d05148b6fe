/// Why one line of meshnoded.conf (or one command-line flag) was refused.
public enum ConfigProblem: Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read (the text is the system's reason).
    case unreadable(String)
    /// The path names something other than a regular file (the text says what: "a FIFO").
    case notRegularFile(String)
    /// The file is larger than the limit, in bytes.
    case fileTooLarge(limit: Int)
    /// A line is longer than the limit, in bytes.
    case lineTooLong(limit: Int)
    /// The file is not valid UTF-8 text or holds a NUL byte.
    case notText
    /// A line is neither a comment, a `[section]` nor a `key = value` pair.
    case syntax(String)
    /// A `[section]` header names no known section.
    case unknownSection(String)
    /// A key appears before any `[section]` header.
    case keyOutsideSection(String)
    /// A key is not defined in its section.
    case unknownKey(key: String, section: String)
    /// A key is set twice in the file.
    case duplicateKey(key: String, section: String, firstLine: Int)
    /// A value does not fit its key; `expected` says what would.
    case invalidValue(key: String, section: String, value: String, expected: String)
    /// Two settings contradict each other.
    case inconsistent(String)
    /// A command-line argument is not a known flag or lacks its value.
    case badFlag(String)
    /// A file a setting names cannot be used (the error's location is that file).
    case namedFile(section: String, key: String, reason: String)

    /// The reason as printed after `file:line:`.
    public var description: String {
        switch self {
        case .unreadable(let reason): "cannot read: \(reason)"
        case .notRegularFile(let kind): "not a regular file but \(kind)"
        case .fileTooLarge(let limit): "file larger than \(limit) bytes"
        case .lineTooLong(let limit): "line longer than \(limit) bytes"
        case .notText: "not UTF-8 text"
        case .syntax(let detail): "syntax error: \(detail)"
        case .unknownSection(let name): "unknown section [\(name)]"
        case .keyOutsideSection(let key): "key '\(key)' before any [section]"
        case .unknownKey(let key, let section): "unknown key '\(key)' in [\(section)]"
        case .duplicateKey(let key, let section, let first):
            "key '\(key)' in [\(section)] already set on line \(first)"
        case .invalidValue(let key, let section, let value, let expected):
            "invalid value '\(value)' for '\(key)' in [\(section)]: expected \(expected)"
        case .inconsistent(let detail): detail
        case .badFlag(let detail): detail
        case .namedFile(let section, let key, let reason): "[\(section)] \(key): \(reason)"
        }
    }
}
