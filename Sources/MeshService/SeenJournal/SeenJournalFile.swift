import Glibc

/// The file `seen.journal`: exactly `slotCount` slots of 32 bytes, created filled with zeros so
/// that later writes never allocate (and `fdatasync` never has metadata to commit).
struct SeenJournalFile: Sendable {
    static let pageSize = 4096
    let path: String
    let descriptor: Int32
    let slotCount: Int

    /// Opens or creates the file (mode 0600, no symbolic link) and returns it with the bytes of
    /// its first `slotCount` slots; it then has exactly that many slots.
    static func open(path: String, slotCount: Int) throws(SeenJournalError) -> (SeenJournalFile, [UInt8]) {
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(path: path, step: "open", errno: errno) }
        let file = SeenJournalFile(path: path, descriptor: descriptor, slotCount: slotCount)
        do throws(SeenJournalError) {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw .io(path: path, step: "stat", errno: errno) }
            guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
            let wanted = slotCount * SeenJournalSlot.size
            let size = Int(info.st_size)
            var bytes = [UInt8](repeating: 0, count: min(size, wanted))
            try file.read(&bytes)
            if size > wanted {
                guard ftruncate(descriptor, off_t(wanted)) == 0 else { throw .io(path: path, step: "truncate", errno: errno) }
            } else if size < wanted {
                // Page by page: one large write would put the file in large folios (Linux 6.16+
                // ext4), and every later 32-byte write would dirty, and count, a whole folio.
                let page = [UInt8](repeating: 0, count: Self.pageSize)
                var offset = size
                while offset < wanted {
                    let length = min(Self.pageSize - offset % Self.pageSize, wanted - offset)
                    try file.write(length == Self.pageSize ? page : Array(page[0..<length]), at: offset)
                    offset += length
                }
                guard fdatasync(descriptor) == 0 else { throw .io(path: path, step: "fdatasync", errno: errno) }
            }
            // The pages the read (and its readahead) brought in are clean: drop them, so writes
            // bring back single pages and dirty no more than the page they change.
            _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
            return (file, bytes)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    /// Fills `bytes` from the start of the file.
    func read(_ bytes: inout [UInt8]) throws(SeenJournalError) {
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .io(path: path, step: "read", errno: count < 0 ? errno : EIO) }
            filled += count
        }
    }

    /// Writes `bytes` at byte `offset`.
    func write(_ bytes: [UInt8], at offset: Int) throws(SeenJournalError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(offset + written)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .io(path: path, step: "write", errno: count < 0 ? errno : EIO) }
            written += count
        }
    }

    /// Makes what was written durable.
    func sync() throws(SeenJournalError) {
        guard fdatasync(descriptor) == 0 else { throw .io(path: path, step: "fdatasync", errno: errno) }
    }

    /// Closes the file.
    func close() {
        _ = Glibc.close(descriptor)
    }
}
