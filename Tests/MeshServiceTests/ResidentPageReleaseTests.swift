import Glibc
import Testing
@testable import MeshService

@Suite("Clean file mappings and giving their pages back")
struct ResidentPageReleaseTests {
    /// One smaps entry as the kernel prints it (the fields the parser reads, and others around them).
    static func entry(_ header: String, rss: Int = 96, anonymous: Int = 0, flags: String = "rd ex mr mw me") -> String {
        """
        \(header)
        Size:                128 kB
        Rss:                \(rss) kB
        Pss:                \(rss) kB
        Private_Clean:      \(rss - anonymous) kB
        Anonymous:          \(anonymous) kB
        Swap:                  0 kB
        Locked:                0 kB
        THPeligible:           0
        VmFlags: \(flags)

        """
    }

    @Test("Code and read-only data of a file are clean mappings")
    func codeIsClean() {
        let smaps = Self.entry("55e323e4e000-55e324220000 r-xp 00000000 fe:00 5311286    /usr/bin/meshnoded", rss: 3016)
            + Self.entry("7f0000000000-7f0000010000 r--p 00000000 fe:00 42    /usr/lib/x86_64-linux-gnu/libcrypto.so.3", rss: 64)
        #expect(CleanFileMapping.parse(smaps: smaps) == [
            CleanFileMapping(start: 0x55e3_23e4_e000, end: 0x55e3_2422_0000, path: "/usr/bin/meshnoded", residentKiB: 3016),
            CleanFileMapping(start: 0x7f00_0000_0000, end: 0x7f00_0001_0000, path: "/usr/lib/x86_64-linux-gnu/libcrypto.so.3", residentKiB: 64),
        ])
    }

    @Test("Mappings that were written, are writable, shared, anonymous, locked, deleted, memfd or not resident are left alone",
          arguments: [
              entry("55e324220000-55e324233000 r--p 003d1000 fe:00 5311286    /usr/bin/meshnoded", rss: 76, anonymous: 76),
              entry("55e324220000-55e324233000 r--p 003d1000 fe:00 5311286    /usr/bin/meshnoded", rss: 76, anonymous: 4),
              entry("55e324233000-55e32424f000 rw-p 003e4000 fe:00 5311286    /usr/bin/meshnoded"),
              entry("7f0000000000-7f0000010000 r--s 00000000 fe:00 42    /var/lib/something"),
              entry("7f0000000000-7f0000010000 r-xp 00000000 00:00 0    [vdso]"),
              entry("7f0000000000-7f0000010000 r--p 00000000 00:00 0"),
              entry("7f0000000000-7f0000010000 r-xp 00000000 fe:00 42    /usr/lib/libx.so", flags: "rd ex mr mw me lo"),
              entry("7f0000000000-7f0000010000 r-xp 00000000 fe:00 42    /usr/lib/libx.so (deleted)"),
              entry("7f0000000000-7f0000010000 r--p 00000000 00:01 42    /memfd:journal (deleted)"),
              entry("7f0000000000-7f0000010000 r-xp 00000000 fe:00 42    /usr/lib/libx.so", rss: 0),
              entry("7f0000000000-7f0000010000 ---p 00000000 fe:00 42    /usr/lib/libx.so"),
          ])
    func leftAlone(smaps: String) {
        #expect(CleanFileMapping.parse(smaps: smaps).isEmpty)
    }

    @Test("A mapping whose Anonymous or Rss line is missing or malformed is left alone", arguments: [
        "55e323e4e000-55e324220000 r-xp 00000000 fe:00 1    /usr/bin/meshnoded\nRss:  12 kB\n",
        "55e323e4e000-55e324220000 r-xp 00000000 fe:00 1    /usr/bin/meshnoded\nAnonymous:  0 kB\n",
        "55e323e4e000-55e324220000 r-xp 00000000 fe:00 1    /usr/bin/meshnoded\nRss:  x kB\nAnonymous:  0 kB\n",
        "55e323e4e000-55e324220000 r-xp 00000000 fe:00 1    /usr/bin/meshnoded\nRss:  12 MB\nAnonymous:  0 kB\n",
        "zz-55e324220000 r-xp 00000000 fe:00 1    /usr/bin/meshnoded\nRss:  12 kB\nAnonymous:  0 kB\n",
        "55e324220000-55e323e4e000 r-xp 00000000 fe:00 1    /usr/bin/meshnoded\nRss:  12 kB\nAnonymous:  0 kB\n",
    ])
    func malformedIsLeftAlone(smaps: String) {
        #expect(CleanFileMapping.parse(smaps: smaps).isEmpty)
    }

    @Test("A clean mapping after one that is not is still found")
    func cleanAfterDirty() {
        let smaps = Self.entry("55e324233000-55e32424f000 rw-p 003e4000 fe:00 5311286    /usr/bin/meshnoded")
            + Self.entry("7f0000000000-7f0000010000 r-xp 00000000 fe:00 42    /usr/lib/lib with space.so", rss: 8)
        #expect(CleanFileMapping.parse(smaps: smaps).map(\.path) == ["/usr/lib/lib with space.so"])
    }

    /// The test process itself: its code pages are unmapped and the process runs on, mapping again
    /// what it touches; its resident file pages drop.
    @Test("Releasing this process's clean pages lowers its file-backed resident memory, and it runs on")
    func releasesThisProcess() throws {
        func residentFileKiB() -> Int? {
            guard let status = try? String(contentsOfProcFile: "/proc/self/status") else { return nil }
            let line = status.split(separator: "\n").first { $0.hasPrefix("RssFile:") }
            return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
        }
        let before = try #require(residentFileKiB())
        let outcome = try ResidentPageRelease.release()
        let after = try #require(residentFileKiB())
        #expect(outcome.mappings > 0 && outcome.refused == 0)
        #expect(outcome.residentKiB > 0)
        #expect(after < before, "RssFile \(before) kB before, \(after) kB after")
    }

    @Test("An unreadable smaps is a typed failure")
    func unreadable() {
        #expect(throws: ResidentPageRelease.Failure.smapsUnreadable(errno: ENOENT)) {
            try ResidentPageRelease.release(smapsPath: "/nonexistent/smaps")
        }
    }
}

extension String {
    /// A small proc file's text.
    fileprivate init(contentsOfProcFile path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ResidentPageRelease.Failure.smapsUnreadable(errno: errno) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = Glibc.read(descriptor, &buffer, 16_384)
        self = String(decoding: buffer[..<Swift.max(0, count)], as: UTF8.self)
    }
}
