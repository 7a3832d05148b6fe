import Dispatch
import Testing
@testable import DBusKit

@Suite("D-Bus connection confined to its loop thread")
struct DBusConfinementTests {
    @Test("Using a connection off its loop thread stops the process")
    func offLoopStops() async {
        await #expect(processExitsWith: .failure) {
            let loop = try DBusEventLoop()
            DBusConnection(loop: loop).close()
        }
    }

    @Test("On its loop thread the same call is fine")
    func onLoop() throws {
        let loop = try DBusEventLoop()
        loop.start(name: "confinement-test")
        let done = Recorded()
        loop.post {
            DBusConnection(loop: loop).close()
            done.mark()
        }
        #expect(done.waitMarked())
        loop.stop {}
    }
}

/// A flag set on another thread, waited for with a deadline.
private final class Recorded: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func mark() { semaphore.signal() }
    func waitMarked() -> Bool { semaphore.wait(timeout: .now() + 5) == .success }
}
