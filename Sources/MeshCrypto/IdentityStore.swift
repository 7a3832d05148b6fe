import Glibc

/// Loads or creates the node identity in a state directory, as `identity.key` (mode 0600),
/// written atomically: temporary file, fsync, rename, fsync of the directory.
public struct IdentityStore: Sendable {
    /// The key file's name inside the state directory.
    public static let fileName = "identity.key"
    /// The state directory.
    public let directory: String

    /// Creates a store for `directory` (created with mode 0700 on first save if missing).
    public init(directory: String) { self.directory = directory }

    /// The full path of the key file.
    public var keyFilePath: String { directory + "/" + Self.fileName }

    /// Loads the identity, or nil if the key file does not exist. Any other problem throws.
    public func load() throws(IdentityStoreError) -> NodeIdentity? {
        let path = keyFilePath
        let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == ENOTDIR { throw .directoryUnavailable(path: directory, errno: code) }
            throw .unreadable(path: path, errno: code)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
        guard info.st_mode & 0o077 == 0 else { throw .insecurePermissions(path: path, mode: info.st_mode & 0o777) }
        var bytes = [UInt8](repeating: 0, count: IdentityFile.length + 1)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: path, errno: errno) }
            if count == 0 { break }
            total += count
        }
        do throws(IdentityFileProblem) {
            return try IdentityFile.decode(Array(bytes.prefix(total)))
        } catch {
            throw .corrupt(path: path, problem: error)
        }
    }

    /// Loads the identity, or generates and saves a new one if no key file exists yet.
    public func loadOrCreate() throws(IdentityStoreError) -> NodeIdentity {
        if let existing = try load() { return existing }
        let identity: NodeIdentity
        do throws(CryptoError) {
            identity = try NodeIdentity.generate()
        } catch {
            throw .crypto(error)
        }
        try save(identity)
        return identity
    }

    /// Writes `identity` atomically, replacing any existing key file.
    func save(_ identity: NodeIdentity) throws(IdentityStoreError) {
        let bytes: [UInt8]
        do throws(CryptoError) {
            bytes = try IdentityFile.encode(identity)
        } catch {
            throw .crypto(error)
        }
        try ensureDirectory()
        let temporary = keyFilePath + ".tmp-\(getpid())"
        let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .writeFailed(path: temporary, step: "open", errno: errno) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do throws(IdentityStoreError) {
            try writeAll(bytes, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw .writeFailed(path: temporary, step: "fsync", errno: errno) }
            closed = true
            guard close(descriptor) == 0 else { throw .writeFailed(path: temporary, step: "close", errno: errno) }
            guard rename(temporary, keyFilePath) == 0 else {
                throw .writeFailed(path: keyFilePath, step: "rename", errno: errno)
            }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncDirectory()
    }

    private func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(IdentityStoreError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .writeFailed(path: path, step: "write", errno: errno) }
            written += count
        }
    }

    private func ensureDirectory() throws(IdentityStoreError) {
        try makeDirectory(directory)
        var info = stat()
        guard stat(directory, &info) == 0 else { throw .directoryUnavailable(path: directory, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .directoryUnavailable(path: directory, errno: ENOTDIR) }
    }

    /// Creates `path` with mode 0700, and any missing parents, like `mkdir -p`.
    private func makeDirectory(_ path: String) throws(IdentityStoreError) {
        if mkdir(path, 0o700) == 0 { return }
        let code = errno
        if code == EEXIST { return }
        let parent = Self.parentDirectory(of: path)
        guard code == ENOENT, !parent.isEmpty, parent != path else {
            throw .directoryUnavailable(path: path, errno: code)
        }
        try makeDirectory(parent)
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw .directoryUnavailable(path: path, errno: errno) }
    }

    private func syncDirectory() throws(IdentityStoreError) {
        let descriptor = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .writeFailed(path: directory, step: "open directory", errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .writeFailed(path: directory, step: "fsync directory", errno: errno) }
    }

    /// The directory that holds `path` (`/a/b/` → `/a`, `/a` → `/`, `a` → ``), as
    /// `NSString.deletingLastPathComponent` gives it.
    static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }
}
