import ControlProtocol
import Glibc

/// Why talking to the control socket failed.
public enum ControlClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The socket could not be reached (not running, wrong path, no permission); `fix` says what to do.
    case cannotConnect(path: String, reason: String, fix: String?)
    /// Reading or writing failed, or timed out.
    case io(String)
    /// The daemon's reply was not valid protocol JSON.
    case protocolError(String)

    /// A readable reason, and on its own line what to do, as doctor's fix lines (`  -> ...`).
    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason, let fix):
            "cannot connect to \(path): \(reason)" + (fix.map { "\n  -> " + $0 } ?? "")
        case .io(let reason) where reason.hasPrefix("timed out"):
            "control socket I/O failed: \(reason)\n  -> meshnoded is busy or hung: systemctl status meshnoded; journalctl -u meshnoded -b"
        case .io(let reason): "control socket I/O failed: \(reason)"
        case .protocolError(let reason): "unexpected reply from meshnoded: \(reason)"
        }
    }
}

/// What is at a control socket's path, for the advice when connecting fails.
public enum SocketPathKind: Equatable, Sendable {
    /// Nothing.
    case missing
    /// A socket, with the name of its group (or its number).
    case socket(group: String)
    /// A directory; `containsSocket` names a `control.sock` inside it, when there is one.
    case directory(containsSocket: String?)
    /// Something else (a regular file, a FIFO, ...).
    case other

    /// What to do after `connect` failed with `code` on a path that holds this kind of file; nil
    /// when there is nothing better to say than the error.
    public func fix(path: String, errno code: Int32) -> String? {
        let running = "is meshnoded running? systemctl status meshnoded (journalctl -u meshnoded -b); "
            + "if it runs with another [node] control_socket, give that path: --socket PATH"
        switch self {
        case .directory(let socket?):
            return "\(path) is a directory, not the socket: --socket \(socket)"
        case .directory(nil):
            return "\(path) is a directory, not the socket: give the socket's path (meshnoded's [node] control_socket)"
        case .other:
            return "\(path) is not a socket: give the socket's path (meshnoded's [node] control_socket)"
        case .missing:
            return running
        case .socket(let group) where code == EACCES:
            return "only root and group \(group) may use it: sudo usermod -aG \(group) $USER, then log in again "
                + "(or run relayctl as root); relayctl doctor checks the rest"
        case .socket where code == ECONNREFUSED:
            return "nobody listens on it (left by a daemon that stopped): " + running
        case .socket:
            return code == ENOENT ? running : nil
        }
    }

    /// What is at `path` now.
    public static func at(_ path: String) -> SocketPathKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFSOCK: return .socket(group: groupName(info.st_gid))
        case S_IFDIR:
            var inner = stat()
            let candidate = path.hasSuffix("/") ? path + "control.sock" : path + "/control.sock"
            return .directory(containsSocket: stat(candidate, &inner) == 0 && inner.st_mode & S_IFMT == S_IFSOCK ? candidate : nil)
        default: return .other
        }
    }

    private static func groupName(_ gid: gid_t) -> String {
        var entry = group()
        var found: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.gr_name else {
            return String(gid)
        }
        return String(cString: name)
    }
}
