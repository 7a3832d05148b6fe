/// How important a log record is; the names are syslog's, the order is by severity.
public enum LogLevel: String, CaseIterable, Sendable, Comparable, CustomStringConvertible {
    /// Detail for developers (syslog priority 7).
    case debug
    /// Normal operation worth recording (priority 6).
    case info
    /// Normal but significant: start, stop, reload, neighbours joining (priority 5).
    case notice
    /// Something went wrong but the node carries on (priority 4).
    case warning
    /// The node cannot do what it was asked (priority 3).
    case error

    /// The syslog priority journald stores in `PRIORITY`.
    public var syslogPriority: Int {
        switch self {
        case .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        }
    }

    /// The level name as written in the configuration file.
    public var description: String { rawValue }

    /// Orders by severity: `debug < info < … < error`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.syslogPriority > rhs.syslogPriority
    }
}
