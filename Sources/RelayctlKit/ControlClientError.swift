import ControlProtocol
import Glibc

/// Why talking to the control socket failed.
public enum ControlClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The socket could not be reached (not running, wrong path, no permission).
    case cannotConnect(path: String, reason: String)
    /// Reading or writing failed, or timed out.
    case io(String)
    /// The daemon's reply was not valid protocol JSON.
    case protocolError(String)

    /// A readable reason.
    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason): "cannot connect to \(path): \(reason)"
        case .io(let reason): "control socket I/O failed: \(reason)"
        case .protocolError(let reason): "unexpected reply from meshnoded: \(reason)"
        }
    }
}
