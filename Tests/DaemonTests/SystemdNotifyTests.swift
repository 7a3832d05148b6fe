import ControlProtocol
import Foundation
import MeshService
import Testing

@Suite("sd_notify on a NOTIFY_SOCKET the test listens on", .serialized)
struct SystemdNotifyTests {
    /// Every wait below ends on its event; this deadline is only for a node that is broken, so it
    /// is far beyond what a run under heavy load takes (the tests never sleep for a fixed time to
    /// let something happen, so their outcome does not depend on the machine's speed).
    static let deadline: Double = 60

    /// Starts a node whose NOTIFY_SOCKET is a listener of the test's, with the watchdog on.
    private func startNode(name: String, watchdogMicroseconds: Int) throws -> (TemporaryFolder, NotifyListener, DaemonProcess) {
        let folder = try TemporaryFolder()
        let listener = try NotifyListener(path: folder.url.appendingPathComponent("notify.sock").path)
        let node = try DaemonProcess(
            name: name, folder: folder.url, port: Ports.block(of: 1),
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": String(watchdogMicroseconds)])
        try node.start()
        return (folder, listener, node)
    }

    @Test("READY=1 at start, WATCHDOG=1 keep-alives, STOPPING=1 on SIGTERM")
    func notifications() throws {
        let (folder, listener, node) = try startNode(name: "notified", watchdogMicroseconds: 400_000)
        defer { folder.remove() }
        let ready = listener.waitFor("READY=1", timeout: Self.deadline)
        #expect(ready.last?.contains("READY=1") == true)
        #expect(ready.last?.contains("STATUS=") == true)
        let watchdog = listener.waitFor("WATCHDOG=1", timeout: Self.deadline)
        #expect(watchdog.last?.contains("WATCHDOG=1") == true)
        // Read while the node stops, as systemd does.
        kill(node.process.processIdentifier, SIGTERM)
        let stopping = listener.waitFor("STOPPING=1", timeout: Self.deadline)
        #expect(stopping.contains { $0.contains("STOPPING=1") })
        #expect(node.waitForExit(timeout: Self.deadline))
        #expect(node.terminate().status == 0)
    }

    /// A SIGTERM that came after the disposition was set to ignore but before libdispatch had
    /// armed its signal source was once lost, and the node ran on (CI, under load). The daemon
    /// now blocks the signals before any thread exists, so one sent at any moment of start-up
    /// waits for the source. Only a signal that lands before `main` (nothing logged yet) may
    /// still end the process by the default action. The pause before SIGTERM only picks the
    /// moment (which phase it hits varies with the machine's speed; every phase must pass).
    @Test("SIGTERM at any moment of start-up stops the node cleanly, never lost", arguments: [0, 5, 15, 30, 60, 120, 250])
    func sigtermDuringStartUp(milliseconds: Int) throws {
        let (folder, _, node) = try startNode(name: "early\(milliseconds)", watchdogMicroseconds: 400_000)
        defer { folder.remove() }
        usleep(UInt32(milliseconds * 1000))
        let stopped = node.terminate(timeout: Self.deadline)
        #expect(stopped.status != -1, "the node was still running \(Self.deadline) s after SIGTERM")
        if node.process.terminationReason == .uncaughtSignal {
            #expect(stopped.status == SIGTERM && node.log.isEmpty, "killed by signal \(stopped.status) after it had logged: \(node.log)")
        } else {
            #expect(stopped.status == 0)
        }
    }

    /// `sd_notify` blocks while the socket's queue is full. Sent from the engine's queue it
    /// once froze a node for good: keep-alives filled the queue of a listener that had
    /// stopped reading, and SIGTERM could no longer be handled.
    @Test("A notify socket nobody reads neither stalls the node nor stops it from exiting")
    func unreadNotifySocket() throws {
        let (folder, listener, node) = try startNode(name: "unheard", watchdogMicroseconds: 40_000)
        defer { folder.remove() }
        #expect(listener.waitFor("READY=1", timeout: Self.deadline).last?.contains("READY=1") == true)
        // Stop reading: keep-alives every 20 ms fill the socket's queue; from then on the
        // node's next sd_notify blocks.
        #expect(listener.waitUntilFull(timeout: Self.deadline), "the node's keep-alives never filled the queue")
        #expect(node.json(StatusReport.self, "status")?.state == "running", "the control socket still answers")
        // A node stalled on the full socket never exits (the bug this guards against); one that
        // is not exits on SIGTERM however loaded the machine is.
        let stopped = node.terminate(timeout: Self.deadline)
        #expect(stopped.status == 0)
    }
}
