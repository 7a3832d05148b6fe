import Glibc

/// Gives back the pages of code and read-only data that only start-up used.
///
/// Start-up runs a great deal of code once: configuration parsing, OpenSSL's set-up, the
/// transport's and the control socket's start, the Swift runtime's first metadata lookups. The
/// kernel maps a file's pages 64 KB around every fault, so all of that stays mapped in the
/// process, about 12 MiB of a 14 MiB idle resident set (docs/PERFORMANCE.md, "Footprint"), and
/// mapped executable pages are the last the kernel reclaims. Once the node runs, `release()`
/// unmaps every clean file mapping (`CleanFileMapping`) with `MADV_DONTNEED`; what the node
/// still runs is mapped again on its next touch, from the page cache, unchanged. The pages stay
/// in the page cache as ordinary cached file data, which the kernel may reuse under pressure.
/// Anonymous memory (the heap, stacks, relocated data) is never touched.
public enum ResidentPageRelease {
    /// What one release did.
    public struct Outcome: Equatable, Sendable {
        /// Mappings advised.
        public var mappings: Int
        /// Their resident KiB just before, as smaps showed.
        public var residentKiB: Int
        /// Mappings `madvise` refused (left as they were).
        public var refused: Int
    }

    /// Why nothing was released.
    public enum Failure: Error, Equatable {
        /// `/proc/self/smaps` could not be opened or read (`errno`).
        case smapsUnreadable(errno: Int32)
    }

    /// Unmaps the clean file mappings' pages of this process.
    public static func release(smapsPath: String = "/proc/self/smaps") throws(Failure) -> Outcome {
        let text = try read(path: smapsPath, limit: CleanFileMapping.maxSmapsBytes)
        var outcome = Outcome(mappings: 0, residentKiB: 0, refused: 0)
        for mapping in CleanFileMapping.parse(smaps: text) {
            let start = UnsafeMutableRawPointer(bitPattern: mapping.start)
            if madvise(start, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 {
                outcome.mappings += 1
                outcome.residentKiB += mapping.residentKiB
            } else {
                outcome.refused += 1
            }
        }
        return outcome
    }

    /// Reads at most `limit` bytes of a proc file.
    private static func read(path: String, limit: Int) throws(Failure) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .smapsUnreadable(errno: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min($0.count, limit - bytes.count)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .smapsUnreadable(errno: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
