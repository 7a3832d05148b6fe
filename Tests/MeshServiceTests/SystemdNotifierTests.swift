import ControlProtocol
import Glibc
import MeshTestSupport
import Testing
@testable import MeshService

/// These tests change NOTIFY_SOCKET and WATCHDOG_* in the process environment, so they run
/// one at a time and restore it; no other suite reads those variables.
@Suite("sd_notify", .serialized)
struct SystemdNotifierTests {
    /// A datagram socket standing in for systemd's notify socket.
    final class FakeSystemd {
        let directory: TemporaryDirectory
        let path: String
        let fd: Int32

        init() throws {
            directory = try TemporaryDirectory()
            path = directory.path + "/notify"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            let result = try UnixSocketAddress.withAddress(path) { bind(fd, $0, $1) }
            try #require(result == 0)
            setenv("NOTIFY_SOCKET", path, 1)
        }

        deinit {
            unsetenv("NOTIFY_SOCKET")
            unsetenv("WATCHDOG_USEC")
            unsetenv("WATCHDOG_PID")
            close(fd)
        }

        /// The next datagram's text, or nil after `timeout`.
        func receive(timeout: Duration = .seconds(10)) -> String? {
            guard waitReadable(fd, timeout: timeout) else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return count >= 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
        }
    }

    @Test func messageFormatting() {
        #expect(NotifyMessage.payload([.ready, .status("serving 3 neighbours")]) == "READY=1\nSTATUS=serving 3 neighbours")
        #expect(NotifyMessage.status("two\nlines").line == "STATUS=two lines")
        #expect(NotifyMessage.status(String(repeating: "a", count: 600)).line.utf8.count == 7 + 512)
        #expect(NotifyMessage.payload([.reloading, .monotonicMicroseconds(42)]) == "RELOADING=1\nMONOTONIC_USEC=42")
        #expect(NotifyMessage.payload([.stopping, .watchdog]) == "STOPPING=1\nWATCHDOG=1")
    }

    @Test func sendsToTheNotifySocket() throws {
        let systemd = try FakeSystemd()
        let notifier = SystemdNotifier()
        #expect(notifier.isActive)
        #expect(notifier.ready(status: "ready: 0 neighbours"))
        #expect(systemd.receive() == "READY=1\nSTATUS=ready: 0 neighbours")
        #expect(notifier.stopping(status: "bye"))
        #expect(systemd.receive() == "STOPPING=1\nSTATUS=bye")
        #expect(notifier.reloading())
        let reload = try #require(systemd.receive())
        #expect(reload.hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
    }

    @Test func watchdogKeepAlivesAtHalfTheInterval() throws {
        let systemd = try FakeSystemd()
        setenv("WATCHDOG_USEC", "200000", 1)
        setenv("WATCHDOG_PID", String(getpid()), 1)
        let notifier = SystemdNotifier()
        #expect(notifier.watchdogInterval() == .milliseconds(200))
        #expect(notifier.startWatchdog(queue: .global()))
        #expect(systemd.receive() == "WATCHDOG=1")
        #expect(systemd.receive() == "WATCHDOG=1")
        notifier.stopWatchdog()
    }

    @Test func unhealthyNodeGetsNoKeepAlive() throws {
        let systemd = try FakeSystemd()
        setenv("WATCHDOG_USEC", "100000", 1)
        setenv("WATCHDOG_PID", String(getpid()), 1)
        let notifier = SystemdNotifier()
        let checks = Recorder<Bool>()
        #expect(notifier.startWatchdog(queue: .global()) { checks.append(false); return false })
        #expect(checks.wait { $0.count >= 3 })
        notifier.stopWatchdog()
        #expect(systemd.receive(timeout: .zero) == nil)
    }

    /// A socket nobody reads: the caller is never blocked, the backlog stays bounded, and
    /// `flush` gives up at its timeout.
    @Test func unreadSocketNeverBlocksTheCaller() throws {
        let systemd = try FakeSystemd()
        let notifier = SystemdNotifier()
        // More than any kernel queue (max_dgram_qlen is 10 to 512) plus the notifier's backlog.
        let accepted = (0..<2_000).filter { notifier.status("update \($0)") }.count
        #expect(accepted + Int(notifier.droppedCount) == 2_000)
        #expect(notifier.droppedCount > 0)
        #expect(!notifier.flush(timeout: .milliseconds(200)))
        // The first datagrams are there, in order.
        #expect(systemd.receive() == "STATUS=update 0")
        #expect(systemd.receive() == "STATUS=update 1")
    }

    @Test func withoutSystemdEverythingIsANoOp() {
        unsetenv("NOTIFY_SOCKET")
        unsetenv("WATCHDOG_USEC")
        let notifier = SystemdNotifier()
        #expect(!notifier.isActive)
        #expect(!notifier.ready(status: "x"))
        #expect(notifier.watchdogInterval() == nil)
        #expect(!notifier.startWatchdog(queue: .global()))
    }
}
