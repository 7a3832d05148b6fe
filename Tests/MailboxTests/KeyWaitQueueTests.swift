import MeshProtocol
import Testing
@testable import Mailbox

@Suite("Waiting for a key: caps, the lookup schedule, sending, expiry (PROTOCOL.md H4)")
struct KeyWaitQueueTests {
    static let limits = KeyWaitLimits(
        retentionMilliseconds: 3_600_000, totalMessages: 6, totalBytes: 1_000, messagesPerTarget: 3, bytesPerTarget: 400)

    @Test("The schedule: 30 s after the lookup at writing, doubling, never more than an hour",
          arguments: [(1, UInt64(30_000)), (2, 60_000), (3, 120_000), (4, 240_000), (7, 1_920_000), (8, 3_600_000), (40, 3_600_000)])
    func schedule(attempt: Int, delay: UInt64) {
        #expect(KeyLookupBackoff.delay(afterAttempt: attempt) == delay)
    }

    @Test("A target's count and bytes caps, then the total's, refuse the new message and count it; nothing is evicted",
          arguments: [
            ([100, 100, 100, 100], [KeyWaitAdmission.held, .held, .held, .refused(.targetCap)]),
            ([300, 150], [.held, .refused(.targetCap)]),
          ])
    func targetCaps(sizes: [Int], expected: [KeyWaitAdmission]) {
        var queue = KeyWaitQueue(limits: Self.limits)
        let got = sizes.enumerated().map { index, size in
            queue.admit(messageID: message(UInt64(index)), target: node(0xc1), size: size, now: epoch)
        }
        #expect(got == expected)
        #expect(queue.counters.refusedTargetCap == 1)
        #expect(queue.count == expected.filter { $0 == .held }.count)
    }

    @Test("The total caps count every target together")
    func totalCaps() {
        var queue = KeyWaitQueue(limits: Self.limits)
        let admitted = (0..<6).map { index in
            queue.admit(messageID: message(UInt64(index)), target: mintedNode(UInt64(index)), size: 10, now: epoch)
        }
        let over = queue.admit(messageID: message(99), target: node(0xc1), size: 10, now: epoch)
        #expect(admitted.allSatisfy { $0 == .held } && over == .refused(.totalCap))
        var bytes = KeyWaitQueue(limits: Self.limits)
        let results = [(1, 0xc1, 400), (2, 0xc2, 400), (3, 0xc3, 201)].map { id, target, size in
            bytes.admit(messageID: message(UInt64(id)), target: node(UInt8(target)), size: size, now: epoch)
        }
        #expect(results == [.held, .held, .refused(.totalCap)])
        #expect(bytes.counters.refusedTotalCap == 1 && bytes.totalBytes == 800)
    }

    @Test("Lookups follow the schedule per target, not per message")
    func lookupsDue() {
        var queue = KeyWaitQueue(limits: Self.limits)
        _ = queue.admit(messageID: message(1), target: node(0xc1), size: 5, now: epoch)
        _ = queue.admit(messageID: message(2), target: node(0xc1), size: 5, now: epoch + 10_000)
        #expect(queue.lookupsDue(now: epoch + 29_999).isEmpty)
        #expect(queue.lookupsDue(now: epoch + 30_000) == [node(0xc1)])
        queue.lookupStarted(for: node(0xc1), now: epoch + 30_000)
        #expect(queue.lookupsDue(now: epoch + 89_999).isEmpty)
        #expect(queue.lookupsDue(now: epoch + 90_000) == [node(0xc1)])
        #expect(queue.counters.lookupRetries == 1)
    }

    @Test("Restored after a restart, a target's lookup is due at once and its order is kept")
    func restore() {
        var queue = KeyWaitQueue(limits: Self.limits)
        queue.restore(KeyWaitEntry(messageID: message(7), target: node(0xc1), size: 5, queuedAt: epoch, sequence: 9))
        queue.restore(KeyWaitEntry(messageID: message(3), target: node(0xc1), size: 5, queuedAt: epoch, sequence: 4))
        #expect(queue.lookupsDue(now: epoch) == [node(0xc1)])
        #expect(queue.waiting(for: node(0xc1)).map(\.messageID) == [message(3), message(7)])
        _ = queue.admit(messageID: message(8), target: node(0xc1), size: 5, now: epoch)
        #expect(queue.waiting(for: node(0xc1)).last?.sequence == 10)
    }

    @Test("Sent messages leave; what waited the whole retention expires, counted")
    func sentAndExpired() {
        var queue = KeyWaitQueue(limits: Self.limits)
        _ = queue.admit(messageID: message(1), target: node(0xc1), size: 5, now: epoch)
        _ = queue.admit(messageID: message(2), target: node(0xc2), size: 7, now: epoch + 1_000)
        let first = queue.sent(message(1))
        let again = queue.sent(message(1))
        #expect(first && !again)
        #expect(queue.targets == [node(0xc2)])
        let early = queue.expire(now: epoch + 3_600_999)
        let due = queue.expire(now: epoch + 3_601_000)
        #expect(early.isEmpty && due == [message(2)])
        #expect(queue.counters.sent == 1 && queue.counters.expired == 1)
        #expect(queue.count == 0 && queue.totalBytes == 0 && queue.targets.isEmpty)
    }
}
