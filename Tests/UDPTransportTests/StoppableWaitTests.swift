import Glibc
import PosixThread
import Testing

@Suite("A wait on one descriptor that another thread can end")
struct StoppableWaitTests {
    @Test("A readable descriptor ends the wait with its events; stop ends this and every later wait")
    func readableThenStopped() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let waiter = try StoppableWait()
        var byte: UInt8 = 1
        _ = write(ends[1], &byte, 1)
        let events = try #require(waiter.wait(for: ends[0]))
        #expect(events & Int16(POLLIN) != 0)
        #expect(!waiter.isStopped)
        waiter.stop()
        waiter.stop()
        #expect(waiter.isStopped)
        #expect(waiter.wait(for: ends[0]) == nil, "stopped, though the descriptor is still readable")
        #expect(waiter.wait(for: ends[0]) == nil)
    }
}
