import Glibc

/// Why `seen.journal` could not be opened, read, written or synced.
public enum SeenJournalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed.
    case io(path: String, step: String, errno: Int32)
    /// The path is not a regular file.
    case notRegularFile(path: String)

    /// One sentence for the log.
    public var description: String {
        switch self {
        case .io(let path, let step, let code): "\(path): \(step) failed: \(String(cString: strerror(code)))"
        case .notRegularFile(let path): "\(path) is not a regular file"
        }
    }
}
