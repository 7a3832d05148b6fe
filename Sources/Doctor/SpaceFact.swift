/// Free space on the file system that holds the state directory (`statvfs`).
public enum SpaceFact: Equatable, Sendable {
    /// statvfs failed; the path asked and the reason.
    case unknown(path: String, reason: String)
    /// Bytes available to an unprivileged user, and the file system's size, at `path`.
    case measured(path: String, availableBytes: UInt64, totalBytes: UInt64)
}
