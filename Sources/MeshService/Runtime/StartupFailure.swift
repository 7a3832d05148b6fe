import ControlProtocol
import MeshCrypto

/// Why meshnoded could not start once its configuration was accepted: one sentence naming
/// the file (or socket, or transport) and what is wrong, and the exit code it ends with.
public enum StartupFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The identity file or the state directory could not be used.
    case identity(IdentityStoreError)
    /// The control socket at `path` could not be created.
    case controlSocket(path: String, UnixSocketError)
    /// The transport named `kind` could not be opened.
    case transport(kind: String, reason: String)
    /// The state directory is locked by another meshnoded, or cannot be locked.
    case stateDirectory(StateDirectoryLockError)
    /// The node failed to start for another reason.
    case runtime(String)

    /// The sentence printed (and logged) before exiting.
    public var description: String {
        switch self {
        case .identity(let error): "cannot start: \(error)."
        case .controlSocket(let path, let error): "cannot start: control socket \(path): \(error)."
        case .transport(let kind, let reason): "cannot start: the \(kind) transport cannot be opened: \(reason)."
        case .stateDirectory(let error): "cannot start: \(error)."
        case .runtime(let reason): "cannot start: \(reason)."
        }
    }

    /// The exit code (docs/OPERATIONS.md, "Exit codes").
    public var exitCode: MeshnodedExitCode {
        switch self {
        case .identity(let error):
            switch error {
            case .unreadable, .notRegularFile, .insecurePermissions, .corrupt: .identity
            case .directoryUnavailable, .writeFailed: .cannotCreate
            case .crypto: .software
            }
        case .controlSocket, .transport: .unavailable
        case .stateDirectory(let error):
            switch error {
            case .inUse: .unavailable
            case .cannotOpen: .cannotCreate
            }
        case .runtime: .software
        }
    }
}
