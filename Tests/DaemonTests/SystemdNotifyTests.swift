import Foundation
import MeshService
import Testing

@Suite("sd_notify on a NOTIFY_SOCKET the test listens on", .serialized)
struct SystemdNotifyTests {
    @Test("READY=1 at start, WATCHDOG=1 keep-alives, STOPPING=1 on SIGTERM")
    func notifications() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let listener = try NotifyListener(path: folder.url.appendingPathComponent("notify.sock").path)
        let node = try DaemonProcess(
            name: "notified", folder: folder.url, port: Ports.block(of: 1),
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000"])
        try node.start()
        let ready = listener.waitFor("READY=1")
        #expect(ready.last?.contains("READY=1") == true)
        #expect(ready.last?.contains("STATUS=") == true)
        let watchdog = listener.waitFor("WATCHDOG=1")
        #expect(watchdog.last?.contains("WATCHDOG=1") == true)
        let stopped = node.terminate()
        let stopping = listener.waitFor("STOPPING=1", timeout: 3)
        #expect(stopping.contains { $0.contains("STOPPING=1") })
        #expect(stopped.status == 0)
    }
}
