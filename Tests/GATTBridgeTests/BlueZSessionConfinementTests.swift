import DBusKit
import Dispatch
import MeshLink
import Testing
@testable import GATTBridge

@Suite("BlueZ session confined to the D-Bus loop thread")
struct BlueZSessionConfinementTests {
    private static let configuration = BlueZConfiguration(adapter: "hci9", localName: "6709210f")

    private static func session(loop: DBusEventLoop, shared: BlueZSharedBox) throws -> DBusLoopBound<BlueZSession> {
        DBusLoopBound(try BlueZSession(configuration: configuration, loop: loop, shared: shared,
                                       log: { _ in }, handler: { _ in }), loop: loop)
    }

#if compiler(>=6.2)
    @Test("Reaching the session off the loop thread stops the process")
    func offLoopStops() async {
        await #expect(processExitsWith: .failure) {
            let session = try Self.session(loop: try DBusEventLoop(), shared: BlueZSharedBox())
            _ = session.value.links.links.count
        }
    }
#else
    @Test("Reaching the session off the loop thread stops the process", .disabled("exit tests (#expect(processExitsWith:)) need Swift 6.2 or later"))
    func offLoopStops() {}
#endif

    @Test("A frame for a link that does not exist is refused on the loop thread and counted")
    func refusalCountedOnLoop() throws {
        let loop = try DBusEventLoop()
        let shared = BlueZSharedBox()
        let session = try Self.session(loop: loop, shared: shared)
        loop.start(name: "session-test")
        let done = DispatchSemaphore(value: 0)
        loop.post {
            session.value.send([1, 2, 3], on: LinkID(7))
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(shared.withLock { $0.counters.refused } == [.noLink: 1])
        let ended = DispatchSemaphore(value: 0)
        loop.stop { ended.signal() }
        #expect(ended.wait(timeout: .now() + 5) == .success)
    }

    @Test("A transport that is not running answers .gone and counts the frame")
    func notRunningIsGone() throws {
        let transport = try BlueZTransport(configuration: Self.configuration) { _ in }
        #expect(transport.send([1], on: LinkID(1)) == .gone)
        #expect(transport.counters.refused == [.noLink: 1])
        #expect(transport.links.isEmpty)
    }
}
