import MeshProtocol
import Testing
@testable import MeshNode

@Suite("Key lookups this node started: retries, timeout, waiting messages")
struct PendingLookupsTests {
    static let id = try! MessageID(bytes: Array(repeating: 7, count: 16))
    private let limits = KeyLookupLimits(timeout: .seconds(10), retryInterval: .seconds(3), maxLookups: 2, maxWaitingMessages: 3)

    @Test("A lookup retries with a new tag every interval and times out with its messages")
    func retryAndTimeout() {
        var table = PendingLookups(limits: limits)
        let target = NodeID(testIndex: 5)
        let first = table.start(target, tag: 1, now: .zero)
        let second = table.start(target, tag: 2, now: .zero)
        let queued = table.enqueue("hi", id: Self.id, for: target)
        #expect(first == .started && second == .joined && queued)
        var next: UInt64 = 10
        let early = table.retries(now: .seconds(2), newTag: { next += 1; return next })
        let retry = table.retries(now: .seconds(3), newTag: { next += 1; return next })
        #expect(early.isEmpty)
        #expect(retry.map(\.tag) == [11])
        #expect(table.lookups[target]?.tag == 11)
        let notYet = table.expired(now: .seconds(9))
        #expect(notYet.isEmpty)
        let gone = table.expired(now: .seconds(10))
        #expect(gone.map { $0.messages.map(\.text) } == [["hi"]])
        #expect(table.lookups.isEmpty)
    }

    @Test("A cancelled message leaves its lookup, which goes on; an unknown ID cancels nothing")
    func cancel() {
        var table = PendingLookups(limits: limits)
        let target = NodeID(testIndex: 5)
        let other = try! MessageID(bytes: Array(repeating: 8, count: 16))
        _ = table.start(target, tag: 1, now: .zero)
        #expect(table.enqueue("keep", id: Self.id, for: target) && table.enqueue("drop", id: other, for: target))
        let cancelled = table.cancel(other)
        #expect(cancelled?.target == target && cancelled?.message.text == "drop")
        let again = table.cancel(other)
        #expect(again == nil)
        #expect(table.lookups[target]?.messages.map(\.messageID) == [Self.id])
        #expect(table.waitingMessages == 1)
    }

    @Test("Lookups and waiting messages are bounded")
    func bounds() {
        var table = PendingLookups(limits: limits)
        let starts = (1...3).map { table.start(NodeID(testIndex: $0), tag: UInt64($0), now: .zero) }
        #expect(starts == [.started, .started, .full])
        let queued = (0..<3).map { _ in table.enqueue("x", id: Self.id, for: NodeID(testIndex: 1)) }
        #expect(queued == [true, true, true])
        let overflow = [table.enqueue("x", id: Self.id, for: NodeID(testIndex: 2)), table.enqueue("x", id: Self.id, for: NodeID(testIndex: 3))]
        #expect(overflow == [false, false])
        let resolved = table.resolve(NodeID(testIndex: 1))
        #expect(resolved?.messages.count == 3)
        let afterwards = table.enqueue("x", id: Self.id, for: NodeID(testIndex: 2))
        #expect(afterwards)
    }
}
