/// One mapping of `/proc/self/smaps` whose resident pages are all clean pages of a file.
///
/// Such a mapping is private, not writable, backed by a regular file and holds no anonymous
/// (copied-on-write) page: code, read-only data, the ELF headers. `MADV_DONTNEED` unmaps its
/// pages; the next touch maps them again from the page cache (or the file), unchanged. A
/// mapping that was ever written, such as the GOT under RELRO, has anonymous pages and is
/// never one of these.
public struct CleanFileMapping: Equatable, Sendable {
    /// The first address.
    public var start: UInt
    /// The address after the last.
    public var end: UInt
    /// The file's path.
    public var path: String
    /// Resident pages of the mapping, in KiB, when smaps was read.
    public var residentKiB: Int

    /// Creates a mapping record.
    public init(start: UInt, end: UInt, path: String, residentKiB: Int) {
        self.start = start
        self.end = end
        self.path = path
        self.residentKiB = residentKiB
    }

    /// The most smaps text `parse` reads; a process of ours has about a hundred mappings
    /// (about 40 KB of smaps).
    public static let maxSmapsBytes = 4 << 20

    /// The clean file mappings with resident pages in `smaps` (the text of `/proc/PID/smaps`).
    /// Anything the parser does not recognise is skipped, never guessed: a mapping whose
    /// `Anonymous:` or `Rss:` line is missing or malformed is left alone.
    public static func parse(smaps: String) -> [CleanFileMapping] {
        var found: [CleanFileMapping] = []
        var current: Candidate?
        for line in smaps.utf8.prefix(maxSmapsBytes).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let text = String(decoding: line, as: UTF8.self)
            if let header = Candidate(header: text) {
                if let done = current?.mapping { found.append(done) }
                current = header
            } else if header(text) {
                // A mapping the header test refused (anonymous, writable, ...): forget the last.
                if let done = current?.mapping { found.append(done) }
                current = nil
            } else {
                current?.read(field: text)
            }
        }
        if let done = current?.mapping { found.append(done) }
        return found
    }

    /// True for an smaps header line (`start-end perms offset dev inode [path]`).
    private static func header(_ line: String) -> Bool {
        guard let first = line.split(separator: " ", maxSplits: 1).first else { return false }
        return first.contains("-") && first.allSatisfy { $0.isHexDigit || $0 == "-" }
    }

    /// A mapping whose header qualifies, while its fields are read.
    private struct Candidate {
        var start: UInt
        var end: UInt
        var path: String
        var residentKiB: Int?
        var anonymousKiB: Int?
        var locked = false

        /// Parses a header; nil unless it is a private, readable, not writable regular-file mapping.
        init?(header line: String) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, CleanFileMapping.header(line) else { return nil }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), start < end
            else { return nil }
            let perms = Array(fields[1].utf8)
            guard perms.count == 4, perms[0] == UInt8(ascii: "r"), perms[1] == UInt8(ascii: "-"),
                  perms[3] == UInt8(ascii: "p") else { return nil }
            let path = fields[5].trimmingLeadingSpaces()
            guard path.hasPrefix("/"), !path.hasPrefix("/memfd:"), !path.hasSuffix("(deleted)") else { return nil }
            self.start = start
            self.end = end
            self.path = path
        }

        /// Reads `Rss:`, `Anonymous:` and `VmFlags:`; other fields are ignored.
        mutating func read(field line: String) {
            if line.hasPrefix("Rss:") {
                residentKiB = Self.kibibytes(line)
            } else if line.hasPrefix("Anonymous:") {
                anonymousKiB = Self.kibibytes(line)
            } else if line.hasPrefix("VmFlags:") {
                locked = line.split(separator: " ").contains("lo")
            }
        }

        /// The mapping, when its fields show it clean, unlocked and partly resident.
        var mapping: CleanFileMapping? {
            guard let residentKiB, residentKiB > 0, anonymousKiB == 0, !locked else { return nil }
            return CleanFileMapping(start: start, end: end, path: path, residentKiB: residentKiB)
        }

        /// `Name:   123 kB` → 123.
        private static func kibibytes(_ line: String) -> Int? {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 3, parts[2] == "kB" else { return nil }
            return Int(parts[1])
        }
    }
}

extension Substring {
    /// The text without its leading spaces.
    fileprivate func trimmingLeadingSpaces() -> String {
        String(drop { $0 == " " })
    }
}
