/// What `stat` said about a file or directory.
public enum PathFact: Equatable, Sendable {
    /// It does not exist.
    case missing
    /// It could not be looked at (for example EACCES when not run as root); the reason.
    case inaccessible(String)
    /// It exists.
    case present(FileStatus)
}

/// The parts of `struct stat` the checks read.
public struct FileStatus: Equatable, Sendable {
    /// What kind of file.
    public var kind: Kind
    /// The permission bits (`st_mode & 0o7777`).
    public var mode: UInt32
    /// The owner's user name, or the numeric UID when it has none.
    public var owner: String

    /// The file kinds the checks tell apart.
    public enum Kind: Equatable, Sendable {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// Anything else (symbolic links are not followed).
        case other
    }

    /// Creates a status.
    public init(kind: Kind, mode: UInt32, owner: String) {
        self.kind = kind
        self.mode = mode
        self.owner = owner
    }

    /// The mode as three or four octal digits, `600`.
    public var octalMode: String { String(mode, radix: 8) }
}
