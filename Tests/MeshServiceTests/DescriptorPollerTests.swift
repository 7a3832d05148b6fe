import Dispatch
import Glibc
import MeshTestSupport
import Testing
@testable import MeshService

/// The poll thread that replaced libdispatch's read and write sources on the control socket:
/// it must keep their rules, which the control server's bookkeeping relies on.
@Suite("descriptor poller")
struct DescriptorPollerTests {
    /// A connected pair of Unix stream sockets, non-blocking.
    static func socketPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        return (ends[0], ends[1])
    }

    @Test("A source fires only while resumed, and its handler is not re-entered while it runs")
    func firesWhileResumed() throws {
        let poller = try DescriptorPoller(name: "poller-test")
        defer { poller.stop() }
        let (mine, theirs) = try Self.socketPair()
        defer { close(theirs) }
        let queue = DispatchQueue(label: "poller-test")
        let calls = Recorder<Int>()
        let cancelled = Recorder<Int>()
        let source = poller.makeSource(fd: mine, interest: .readable, queue: queue,
                                       handler: { calls.append(1) }, cancelHandler: { cancelled.append(1); close(mine) })
        var byte: UInt8 = 7
        _ = write(theirs, &byte, 1)
        // Created suspended: a ready descriptor does not fire it.
        #expect(!calls.wait(timeout: .milliseconds(200)) { !$0.isEmpty })
        source.resume()
        #expect(calls.wait { !$0.isEmpty })
        // Level-triggered and still readable: it fires again, one call at a time, until suspended.
        #expect(calls.wait { $0.count >= 3 })
        source.suspend()
        let settled = queue.sync { calls.all.count }
        #expect(!calls.wait(timeout: .milliseconds(200)) { $0.count > settled + 1 })
        source.cancel()
        #expect(cancelled.wait { $0.count == 1 })
        #expect(!cancelled.wait(timeout: .milliseconds(200)) { $0.count > 1 }, "the cancel handler runs once")
    }

    @Test("A cancelled source's cancel handler runs on its queue after its last handler, also while suspended")
    func cancelAfterLastHandler() throws {
        let poller = try DescriptorPoller(name: "poller-test")
        defer { poller.stop() }
        let (mine, theirs) = try Self.socketPair()
        defer { close(theirs) }
        let queue = DispatchQueue(label: "poller-test")
        let order = Recorder<String>()
        let source = poller.makeSource(fd: mine, interest: .writable, queue: queue,
                                       handler: { order.append("handler") },
                                       cancelHandler: { order.append("cancel"); close(mine) })
        source.resume()
        #expect(order.wait { !$0.isEmpty })
        queue.sync {
            source.suspend()
            source.cancel()
        }
        #expect(order.wait { $0.last == "cancel" })
        #expect(order.all.filter { $0 == "cancel" }.count == 1)
        #expect(!order.wait(timeout: .milliseconds(200)) { $0.last != "cancel" }, "no handler after the cancel handler")
    }

    @Test("Hundreds of sources come and go on reused descriptor numbers; each is closed once")
    func churn() throws {
        let poller = try DescriptorPoller(name: "poller-test")
        defer { poller.stop() }
        let queue = DispatchQueue(label: "poller-test")
        let closed = Recorder<Int32>()
        for _ in 0..<300 {
            let (mine, theirs) = try Self.socketPair()
            let closer = DescriptorCloser(fd: mine, sources: 2)
            let read = poller.makeSource(fd: mine, interest: .readable, queue: queue, handler: {},
                                         cancelHandler: { closer.sourceCancelled { closed.append($0); return close($0) } })
            let write = poller.makeSource(fd: mine, interest: .writable, queue: queue, handler: {},
                                          cancelHandler: { closer.sourceCancelled { closed.append($0); return close($0) } })
            read.resume()
            write.resume()
            close(theirs)
            read.cancel()
            write.cancel()
        }
        #expect(closed.wait { $0.count == 300 })
        #expect(!closed.wait(timeout: .milliseconds(200)) { $0.count > 300 })
    }
}
