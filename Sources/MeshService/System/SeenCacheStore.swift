import Glibc
import MeshNode
import MeshProtocol

/// The seen cache kept in the state directory across a clean restart (`seen.cache`).
///
/// Format, big-endian: the 8 bytes `MNSEEN1\n`, `vouched_since` (u64, ms since the Unix epoch),
/// a count (u32), then per ID its 16 bytes and its expiry (u64, ms). Written atomically (temporary
/// file, fsync, rename) with mode 0600 when the node stops; read and removed when it starts, so a
/// file never outlives the run after the one that wrote it (a run that crashed leaves none).
public struct SeenCacheStore: Sendable {
    static let magic = Array("MNSEEN1\n".utf8)
    static let headerSize = 8 + 8 + 4
    static let entrySize = 16 + 8

    /// The file's path.
    public let path: String
    /// The most IDs accepted from a file.
    public let capacity: Int

    /// A store for `seen.cache` in `directory`.
    public init(directory: String, capacity: Int) {
        self.path = directory + "/seen.cache"
        self.capacity = capacity
    }

    /// Reads and removes the kept cache; nil when there is none.
    public func take() throws(SeenCacheStoreError) -> SeenCacheSnapshot? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .io(path: path, step: "open", errno: errno)
        }
        defer {
            close(descriptor)
            unlink(path)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .io(path: path, step: "stat", errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .malformed(path: path) }
        let limit = Self.headerSize + capacity * Self.entrySize
        guard Int(info.st_size) <= limit else {
            throw .tooLarge(path: path, count: (Int(info.st_size) - Self.headerSize) / Self.entrySize, capacity: capacity)
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .io(path: path, step: "read", errno: count < 0 ? errno : EIO) }
            filled += count
        }
        return try Self.decode(bytes, path: path, capacity: capacity)
    }

    /// Writes `snapshot` atomically.
    public func save(_ snapshot: SeenCacheSnapshot) throws(SeenCacheStoreError) {
        let bytes = Self.encode(snapshot)
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(path: temporary, step: "open", errno: errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw .io(path: temporary, step: "write", errno: code)
            }
            written += count
        }
        let synced = fsync(descriptor) == 0
        let code = errno
        guard close(descriptor) == 0, synced else {
            unlink(temporary)
            throw .io(path: temporary, step: synced ? "close" : "fsync", errno: synced ? errno : code)
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .io(path: path, step: "rename", errno: errno)
        }
    }

    /// The file's bytes for `snapshot`.
    static func encode(_ snapshot: SeenCacheSnapshot) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(headerSize + snapshot.entries.count * entrySize)
        append(snapshot.vouchedSince, to: &bytes)
        append(UInt32(truncatingIfNeeded: snapshot.entries.count), to: &bytes)
        for entry in snapshot.entries {
            bytes += entry.messageID.bytes
            append(entry.expiresAt, to: &bytes)
        }
        return bytes
    }

    /// Decodes a file's bytes; every length is checked before use.
    static func decode(_ bytes: [UInt8], path: String, capacity: Int) throws(SeenCacheStoreError) -> SeenCacheSnapshot {
        guard bytes.count >= headerSize, Array(bytes[0..<8]) == magic else { throw .malformed(path: path) }
        let vouchedSince = integer(bytes, at: 8, width: 8)
        let count = Int(integer(bytes, at: 16, width: 4))
        guard count <= capacity else { throw .tooLarge(path: path, count: count, capacity: capacity) }
        guard bytes.count == headerSize + count * entrySize else { throw .malformed(path: path) }
        var entries: [SeenCacheSnapshot.Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let start = headerSize + index * entrySize
            guard let id = try? MessageID(bytes: Array(bytes[start..<(start + 16)])) else { throw .malformed(path: path) }
            entries.append(SeenCacheSnapshot.Entry(messageID: id, expiresAt: integer(bytes, at: start + 16, width: 8)))
        }
        return SeenCacheSnapshot(vouchedSince: vouchedSince, entries: entries)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }

    private static func integer(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
        bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
