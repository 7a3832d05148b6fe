import Glibc

/// Why a Unix socket could not be set up or reached.
public enum UnixSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path does not fit `sockaddr_un` (at most `UnixSocketAddress.maxPathBytes` bytes).
    case pathTooLong(String)
    /// A system call failed; `call` names it, `errno` is the code.
    case system(call: String, errno: Int32)
    /// Something that is not a socket is in the way at the path.
    case notASocket(String)

    /// A readable reason.
    public var description: String {
        switch self {
        case .pathTooLong(let path): "socket path too long: \(path)"
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        case .notASocket(let path): "\(path) exists and is not a socket"
        }
    }
}
