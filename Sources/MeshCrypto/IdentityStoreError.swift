import Glibc

/// Why the identity could not be loaded or saved. A damaged key file is never replaced silently.
public enum IdentityStoreError: Error, Equatable, Sendable {
    /// The state directory does not exist and could not be created, or is not a directory.
    case directoryUnavailable(path: String, errno: Int32)
    /// The key file exists but could not be opened or read.
    case unreadable(path: String, errno: Int32)
    /// The key file is not a regular file.
    case notRegularFile(path: String)
    /// The key file can be read or written by group or others (mode shown in octal digits).
    case insecurePermissions(path: String, mode: UInt32)
    /// The key file's contents are damaged or invalid.
    case corrupt(path: String, problem: IdentityFileProblem)
    /// A step of the atomic write failed.
    case writeFailed(path: String, step: String, errno: Int32)
    /// Generating or exporting keys failed.
    case crypto(CryptoError)
}
