import Glibc

/// Why the UDP transport could not start.
public enum UDPTransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `socket`, `bind` or `getsockname` failed with `errno`.
    case system(call: String, errno: Int32)
    /// `start` was called twice.
    case alreadyStarted

    /// A readable reason.
    public var description: String {
        switch self {
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        case .alreadyStarted: "transport already started"
        }
    }
}
