import Foundation

/// libfaketime (Debian 12: 0.9.10), preloaded so the whole meshnoded process sees a wrong wall clock.
///
/// Three traps, all found here and each shown by a small reproduction:
/// - Faked, CLOCK_MONOTONIC breaks timed waits: `FAKETIME_DONT_FAKE_MONOTONIC=1` keeps it real
///   (the engine runs on it anyway).
/// - Even so, libfaketime's `timerfd_settime` shifts an absolute CLOCK_MONOTONIC deadline by the
///   fake offset: a 200 ms timer is armed 3 days out at `-3d` and never fires at `+2y`. Dispatch
///   arms its timers that way, so the daemon's keep-alives and ticks stop and its links go
///   silent (the "wedge at start-up"). A two-function shim preloaded before libfaketime passes
///   `timerfd_settime` / `timerfd_gettime` straight to the kernel.
/// - When `FAKETIME_SHARED` is not set, libfaketime's constructor creates its shared memory and
///   calls `setenv` inside the starting process; a Swift program started that way directly
///   sees no command-line arguments (meshnoded ignores `--runtime-directory` and
///   `--print-config`). So the daemon is started by a preloaded `/bin/sh` that sets the
///   variable up and execs it (same process ID, so signals still reach the daemon).
enum FakeTime {
    /// The multi-threaded build of libfaketime (package `libfaketime`, pulled in by `faketime`).
    static let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"
    /// True when the `faketime` package is installed.
    static var available: Bool { FileManager.default.fileExists(atPath: library) }

    /// Why the shim could not be built.
    enum ShimError: Error {
        /// No C compiler (`cc` or `clang`) built it.
        case noCompiler
    }

    static let shimSource = """
        #define _GNU_SOURCE
        #include <sys/syscall.h>
        #include <sys/timerfd.h>
        #include <unistd.h>
        int timerfd_settime(int fd, int flags, const struct itimerspec *value, struct itimerspec *old) {
            return (int)syscall(SYS_timerfd_settime, fd, flags, value, old);
        }
        int timerfd_gettime(int fd, struct itimerspec *value) {
            return (int)syscall(SYS_timerfd_gettime, fd, value);
        }
        """

    /// Builds the timerfd shim in `folder` with the first C compiler found (`cc`, then `clang`,
    /// then the Swift toolchain's clang) and returns its path.
    static func buildShim(in folder: URL) throws -> String {
        let source = folder.appendingPathComponent("realtimerfd.c")
        let library = folder.appendingPathComponent("realtimerfd.so")
        try shimSource.write(to: source, atomically: true, encoding: .utf8)
        for compiler in ["cc", "clang", "/opt/swift/usr/bin/clang"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [compiler, "-shared", "-fPIC", "-O2", "-o", library.path, source.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { continue }
            process.waitUntilExit()
            if process.terminationStatus == 0 { return library.path }
        }
        throw ShimError.noCompiler
    }

    /// The environment that shifts the wall clock by `offset` (libfaketime's `-10m`, `+2y`),
    /// with the timerfd shim built in `shimFolder` preloaded first.
    static func environment(_ offset: String, shimFolder: URL) throws -> [String: String] {
        let shim = try buildShim(in: shimFolder)
        return [
            "LD_PRELOAD": "\(shim) \(library)", "FAKETIME": offset, "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            "FAKETIME_NO_CACHE": "1",
        ]
    }

    /// Removes the semaphore and shared memory the preloaded shell made for process `pid`
    /// (the shell execs the daemon, so its own clean-up never runs).
    static func removeSharedMemory(of pid: Int32) {
        for name in ["/dev/shm/faketime_shm_\(pid)", "/dev/shm/sem.faketime_sem_\(pid)"] {
            try? FileManager.default.removeItem(atPath: name)
        }
    }
}
