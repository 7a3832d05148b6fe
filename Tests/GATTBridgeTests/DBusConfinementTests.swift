import Dispatch
import Testing
@testable import DBusKit

@Suite("D-Bus connection confined to its loop thread")
struct DBusConfinementTests {
#if compiler(>=6.2)
    @Test("Using a connection off its loop thread stops the process")
    func offLoopStops() async {
        await #expect(processExitsWith: .failure) {
            let loop = try DBusEventLoop()
            DBusConnection(loop: loop).close()
        }
    }
#else
    @Test("Using a connection off its loop thread stops the process", .disabled("exit tests (#expect(processExitsWith:)) need Swift 6.2 or later"))
    func offLoopStops() {}
#endif

#if compiler(>=6.2)
    @Test("Setting a connection's message handler off its loop thread stops the process")
    func handlerOffLoopStops() async {
        await #expect(processExitsWith: .failure) {
            let loop = try DBusEventLoop()
            DBusConnection(loop: loop).onMessage = { _ in false }
        }
    }
#else
    @Test("Setting a connection's message handler off its loop thread stops the process", .disabled("exit tests (#expect(processExitsWith:)) need Swift 6.2 or later"))
    func handlerOffLoopStops() {}
#endif

#if compiler(>=6.2)
    @Test("Reading a loop-bound value off its loop thread stops the process")
    func boundValueOffLoopStops() async {
        await #expect(processExitsWith: .failure) {
            let box = DBusLoopBound([1, 2, 3], loop: try DBusEventLoop())
            _ = box.value.count
        }
    }
#else
    @Test("Reading a loop-bound value off its loop thread stops the process", .disabled("exit tests (#expect(processExitsWith:)) need Swift 6.2 or later"))
    func boundValueOffLoopStops() {}
#endif

#if compiler(>=6.2)
    @Test("The event loop's timers cannot be touched off its thread")
    func loopTimersOffLoopStop() async {
        await #expect(processExitsWith: .failure) {
            _ = try DBusEventLoop().after(1) {}
        }
    }
#else
    @Test("The event loop's timers cannot be touched off its thread", .disabled("exit tests (#expect(processExitsWith:)) need Swift 6.2 or later"))
    func loopTimersOffLoopStop() {}
#endif

    @Test("On its loop thread a loop-bound value reads and changes; elsewhere the box knows it is not")
    func boundValueOnLoop() throws {
        let loop = try DBusEventLoop()
        let box = DBusLoopBound(1, loop: loop)
        #expect(!box.isOnLoop && !loop.isCurrent)
        loop.start(name: "bound-test")
        let done = Recorded()
        loop.post {
            box.value += 1
            if box.value == 2, box.isOnLoop, loop.isCurrent { done.mark() }
        }
        #expect(done.waitMarked())
        #expect(!box.isOnLoop, "a box is on its loop only on the loop thread")
        let ended = Recorded()
        loop.stop { ended.mark() }
        #expect(ended.waitMarked())
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
