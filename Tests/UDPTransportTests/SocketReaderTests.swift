import Dispatch
import Glibc
import MeshTestSupport
import Testing
@testable import UDPTransport

@Suite("The socket reader thread")
struct SocketReaderTests {
    @Test("Readable data is handed over on the queue, and stop ends the thread through its exit action once")
    func handsOverOnTheQueueAndStops() throws {
        let fixture = try PipeAndQueue()
        defer { fixture.close() }
        let (readEnd, writeEnd, queue, mark) = (fixture.readEnd, fixture.writeEnd, fixture.queue, fixture.mark)
        let handedOver = Recorder<Bool>()
        let exits = Recorder<Int>()
        let reader = try SocketReader(
            fd: readEnd, queue: queue,
            onReadable: {
                var byte: UInt8 = 0
                _ = read(readEnd, &byte, 1)
                handedOver.append(mark.isCurrent)
            },
            onExit: { exits.append(1) })
        for _ in 0..<3 {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
        #expect(handedOver.wait { $0.count == 3 })
        #expect(handedOver.all == [true, true, true], "every read runs on the queue")
        reader.stop()
        reader.stop()
        #expect(exits.wait { $0.count == 1 })
        #expect(exits.all.count == 1)
        #expect(handedOver.all.count == 3)
    }
}

/// A pipe for the reader to watch and a queue that says, through its mark, when a block runs on it.
private struct PipeAndQueue {
    let readEnd: Int32
    let writeEnd: Int32
    let queue = DispatchQueue(label: "socket-reader-test")
    let mark: QueueMark

    init() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        (readEnd, writeEnd) = (ends[0], ends[1])
        mark = QueueMark(queue)
    }

    func close() {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }
}
