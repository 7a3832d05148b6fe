import Flooding
import MeshProtocol
import Testing

private func id(_ byte: UInt8) throws -> MessageID { try MessageID(bytes: Array(repeating: byte, count: 16)) }
private func node(_ byte: UInt8) throws -> NodeID { try NodeID(bytes: Array(repeating: byte, count: 16)) }

@Suite("A shorter path later")
struct ShorterPathTests {
    @Test("Only a copy with fewer hops than every accepted one counts as shorter", arguments: [(2, 1, true), (2, 2, false), (1, 2, false), (3, 0, true)])
    func fewerHops(first: Int, later: Int, shorter: Bool) throws {
        var memory = ShorterPathMemory()
        try memory.record(id(1), hops: UInt8(first), now: .zero)
        #expect(try memory.isShorter(id(1), hops: UInt8(later), now: .seconds(1)) == shorter)
    }

    @Test("Entries expire after their lifetime and the oldest goes first when full")
    func bounds() throws {
        var memory = ShorterPathMemory(capacity: 2, lifetime: .seconds(10))
        try memory.record(id(1), hops: 2, now: .zero)
        try memory.record(id(2), hops: 2, now: .seconds(1))
        try memory.record(id(3), hops: 2, now: .seconds(2))
        #expect(memory.size == 2)
        #expect(try !memory.isShorter(id(1), hops: 0, now: .seconds(2)), "evicted")
        #expect(try memory.isShorter(id(2), hops: 0, now: .seconds(2)))
        #expect(try !memory.isShorter(id(2), hops: 0, now: .seconds(11)), "expired")
    }

    @Test("A message first accepted from its origin, or with the memory off, is never relayed again")
    func nothingToImprove() throws {
        var memory = ShorterPathMemory()
        try memory.record(id(1), hops: 0, now: .zero)
        #expect(memory.size == 0)
        var off = ShorterPathMemory(capacity: 0)
        try off.record(id(2), hops: 3, now: .zero)
        #expect(try !off.isShorter(id(2), hops: 0, now: .zero))
    }

    @Test("The router relays a shorter copy again, never delivers it twice, and then drops the longer ones")
    func routerRelaysAgain() throws {
        let (origin, c, local, far) = try (node(0xA0), node(0xC0), node(0xD0), node(0xE0))
        var router = FloodRouter(localNode: local)
        let detour = Envelope(kind: .message, messageID: try id(9), origin: origin, hops: 1, route: [origin, c], timestamp: 0)
        guard case .accept(true, let first?) = router.receive(detour, from: c, neighbours: [c, far], now: .zero) else {
            Issue.record("the first copy is delivered and relayed")
            return
        }
        #expect(first.envelope.hops == 2)
        let direct = Envelope(kind: .message, messageID: try id(9), origin: origin, hops: 0, route: [origin], timestamp: 0)
        #expect(router.precheck(direct, from: origin, now: .seconds(1)) == nil)
        guard case .shorterPath(let again?) = router.receive(direct, from: origin, neighbours: [origin, far], now: .seconds(1)) else {
            Issue.record("the shorter copy is relayed again")
            return
        }
        #expect(again.envelope.hops == 1 && again.targets == [far])
        #expect(router.receive(direct, from: origin, neighbours: [origin, far], now: .seconds(2)) == .drop(.seen))
        #expect(router.receive(detour, from: c, neighbours: [c, far], now: .seconds(2)) == .drop(.seen), "more hops")
    }
}
