import MeshNode
import MeshProtocol
import Testing

/// An envelope of a given payload size with a distinct message ID.
private func envelope(_ number: UInt8, payload: Int = 10, hops: UInt8 = 1) throws -> Envelope {
    let origin = try node(0xA0)
    return Envelope(
        kind: .message, messageID: try MessageID(bytes: Array(repeating: number, count: 16)), origin: origin,
        hops: hops, route: [origin], timestamp: 0, payload: Array(repeating: 0, count: payload))
}

private func node(_ byte: UInt8) throws -> NodeID { try NodeID(bytes: Array(repeating: byte, count: 16)) }

@Suite("Holding for neighbours in their grace")
struct HoldQueueTests {
    let nodeB: NodeID
    let nodeC: NodeID

    init() throws {
        nodeB = try node(0xB0)
        nodeC = try node(0xC0)
    }

    @Test("encodedSize is the length of the encoding", arguments: [0, 1, 300])
    func encodedSize(payload: Int) throws {
        var value = try envelope(1, payload: payload)
        #expect(value.encodedSize == value.encoded().count)
        value.destination = nodeB
        value.signature = Array(repeating: 7, count: 64)
        value.route.append(nodeB)
        #expect(value.encodedSize == value.encoded().count)
    }

    @Test("Held envelopes come back oldest first, unchanged, and only once")
    func releaseOrder() throws {
        var queue = HoldQueue(limits: HoldLimits())
        for number: UInt8 in 1...3 { #expect(queue.hold(try envelope(number, hops: number), for: nodeB, now: .seconds(Int64(number)))) }
        #expect(!queue.hold(try envelope(2), for: nodeB, now: .seconds(4)), "the same message is held once")
        let released = queue.release(for: nodeB, now: .seconds(5))
        #expect(try released == [envelope(1, hops: 1), envelope(2, hops: 2), envelope(3, hops: 3)])
        #expect(queue.release(for: nodeB, now: .seconds(5)).isEmpty)
        #expect(queue.count == 0 && queue.totalBytes == 0)
        #expect(queue.counters.held == 3)
    }

    @Test("The oldest is evicted past the per-neighbour count", arguments: [1, 2, 5])
    func countLimit(limit: Int) throws {
        var queue = HoldQueue(limits: HoldLimits(messagesPerNeighbour: limit))
        for number in 0..<(limit + 3) { queue.hold(try envelope(UInt8(number)), for: nodeB, now: .zero) }
        #expect(queue.count(for: nodeB) == limit)
        #expect(queue.counters.evicted == 3)
        let third = try envelope(3)
        #expect(queue.release(for: nodeB, now: .zero).first?.messageID == third.messageID)
    }

    @Test("Per-neighbour and total byte limits hold, evicting the oldest")
    func byteLimits() throws {
        let size = try envelope(0, payload: 100).encodedSize
        var queue = HoldQueue(limits: HoldLimits(bytesPerNeighbour: size * 2, totalBytes: size * 3))
        for number: UInt8 in 0..<3 { queue.hold(try envelope(number, payload: 100), for: nodeB, now: .zero) }
        #expect(queue.count(for: nodeB) == 2)
        for number: UInt8 in 10..<12 { queue.hold(try envelope(number, payload: 100), for: nodeC, now: .seconds(1)) }
        #expect(queue.totalBytes <= size * 3)
        #expect(queue.count(for: nodeC) == 2)
        #expect(queue.count(for: nodeB) == 1, "the oldest, B's, made room")
        #expect(queue.counters.evicted == 2)
        #expect(!queue.hold(try envelope(20, payload: size * 3), for: nodeB, now: .zero), "larger than any limit")
    }

    @Test("Envelopes older than the age limit expire, at release and by the timer")
    func ageLimit() throws {
        var queue = HoldQueue(limits: HoldLimits(maxAge: .seconds(10)))
        queue.hold(try envelope(1), for: nodeB, now: .zero)
        queue.hold(try envelope(2), for: nodeB, now: .seconds(6))
        queue.hold(try envelope(3), for: nodeC, now: .zero)
        #expect(try queue.release(for: nodeB, now: .seconds(12)) == [envelope(2)])
        queue.expire(now: .seconds(10))
        #expect(queue.count == 0)
        #expect(queue.counters.expired == 2)
    }

    @Test("A departed neighbour's envelopes are dropped and counted")
    func discard() throws {
        var queue = HoldQueue(limits: HoldLimits())
        queue.hold(try envelope(1), for: nodeB, now: .zero)
        queue.discard(for: nodeB)
        #expect(queue.count == 0 && queue.totalBytes == 0 && queue.counters.expired == 1)
    }

    @Test("Disabled limits hold nothing")
    func disabled() throws {
        var queue = HoldQueue(limits: .disabled)
        #expect(!queue.hold(try envelope(1), for: nodeB, now: .zero))
        #expect(queue.counters == HoldCounters())
    }
}
