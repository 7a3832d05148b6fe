/// Every way a D-Bus exchange can fail; each case is counted in ``DBusErrorCounts``.
public enum DBusError: Error, Equatable, Sendable {
    /// The bus could not be reached or refused us.
    case connectionFailed(String)
    /// The bus connection was closed.
    case disconnected
    /// libdbus could not allocate memory.
    case outOfMemory
    /// A name, path, signature or string that libdbus would reject; nothing was sent.
    case invalidArgument(String)
    /// A value had another type than the reader expected.
    case typeMismatch(expected: String, actual: String)
    /// A message exceeded one of the decoding bounds.
    case limitExceeded(String)
    /// A message body could not be read (bad wire data or an unsupported type).
    case malformed(String)
    /// No reply arrived before the call's own deadline.
    case timedOut(String)
    /// The call was cancelled before a reply arrived.
    case cancelled(String)
    /// The peer answered with a D-Bus error (for example `org.bluez.Error.Failed`).
    case remote(name: String, message: String)

    /// The case without its payload, for counting.
    public var kind: Kind {
        switch self {
        case .connectionFailed: .connectionFailed
        case .disconnected: .disconnected
        case .outOfMemory: .outOfMemory
        case .invalidArgument: .invalidArgument
        case .typeMismatch: .typeMismatch
        case .limitExceeded: .limitExceeded
        case .malformed: .malformed
        case .timedOut: .timedOut
        case .cancelled: .cancelled
        case .remote: .remote
        }
    }

    /// The error cases, without payloads.
    public enum Kind: String, CaseIterable, Sendable {
        /// See ``DBusError/connectionFailed(_:)``.
        case connectionFailed
        /// See ``DBusError/disconnected``.
        case disconnected
        /// See ``DBusError/outOfMemory``.
        case outOfMemory
        /// See ``DBusError/invalidArgument(_:)``.
        case invalidArgument
        /// See ``DBusError/typeMismatch(expected:actual:)``.
        case typeMismatch
        /// See ``DBusError/limitExceeded(_:)``.
        case limitExceeded
        /// See ``DBusError/malformed(_:)``.
        case malformed
        /// See ``DBusError/timedOut(_:)``.
        case timedOut
        /// See ``DBusError/cancelled(_:)``.
        case cancelled
        /// See ``DBusError/remote(name:message:)``.
        case remote
    }

    /// Maps an error reply's name to a typed error (libdbus reports its own timeouts as `NoReply`).
    public static func fromReply(name: String, message: String) -> DBusError {
        switch name {
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
             "org.freedesktop.DBus.Error.TimedOut":
            .timedOut(message)
        case "org.freedesktop.DBus.Error.Disconnected":
            .disconnected
        case "org.freedesktop.DBus.Error.NoMemory":
            .outOfMemory
        default:
            .remote(name: name, message: message)
        }
    }

    /// A one-line description for logs.
    public var summary: String {
        switch self {
        case .connectionFailed(let why): "connection failed: \(why)"
        case .disconnected: "disconnected"
        case .outOfMemory: "out of memory"
        case .invalidArgument(let what): "invalid argument: \(what)"
        case .typeMismatch(let expected, let actual): "type mismatch: expected \(expected), got \(actual)"
        case .limitExceeded(let what): "limit exceeded: \(what)"
        case .malformed(let what): "malformed: \(what)"
        case .timedOut(let what): "timed out: \(what)"
        case .cancelled(let what): "cancelled: \(what)"
        case .remote(let name, let message): "\(name): \(message)"
        }
    }
}
