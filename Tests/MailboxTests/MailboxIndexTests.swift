import MeshProtocol
import Testing
@testable import Mailbox

@Suite("Mailbox index: admission under caps, eviction, expiry, hand-over order")
struct MailboxIndexTests {
    private func admit(
        _ index: inout MailboxIndex, _ id: UInt64, to recipient: UInt8, from origin: UInt8 = 0xa1, via depositor: UInt8 = 0xb1,
        size: Int = 100, at now: UInt64 = epoch
    ) -> MailboxAdmission {
        index.admit(
            messageID: message(id), recipient: node(recipient), origin: node(origin), depositor: node(depositor), size: size,
            timestamp: now, now: now)
    }

    @Test("A message is held once; a second copy of the same ID is refused as duplicate")
    func duplicate() {
        var index = MailboxIndex(limits: MailboxLimits())
        #expect(admit(&index, 1, to: 0xd1) == .held(evicted: []))
        #expect(admit(&index, 1, to: 0xd1) == .refused(.refusedDuplicate))
        #expect(index.count == 1 && index.counters.deposited == 1 && index.counters[.refusedDuplicate] == 1)
    }

    @Test("Too large, or stamped longer ago than the retention, is refused", arguments: [
        (size: 16_385, age: UInt64(0), cause: MailboxDropCause.refusedTooLarge),
        (size: 100, age: UInt64(24 * 3_600_000), cause: .refusedExpired),
    ])
    func refusals(size: Int, age: UInt64, cause: MailboxDropCause) {
        var index = MailboxIndex(limits: MailboxLimits())
        let outcome = index.admit(
            messageID: message(1), recipient: node(0xd1), origin: node(0xa1), depositor: node(0xb1), size: size,
            timestamp: epoch - age, now: epoch)
        #expect(outcome == .refused(cause))
        #expect(index.count == 0 && index.counters[cause] == 1)
    }

    @Test("Each cap evicts the oldest message of its own group", arguments: [
        (limits: MailboxLimits(messagesPerRecipient: 3), cause: MailboxDropCause.evictedRecipientCap),
        (limits: MailboxLimits(messagesPerOrigin: 3), cause: .evictedOriginCap),
        (limits: MailboxLimits(messagesPerDepositor: 3), cause: .evictedDepositorCap),
        (limits: MailboxLimits(totalMessages: 3), cause: .evictedTotalCap),
        (limits: MailboxLimits(bytesPerRecipient: 300), cause: .evictedRecipientCap),
        (limits: MailboxLimits(totalBytes: 300), cause: .evictedTotalCap),
    ])
    func caps(limits: MailboxLimits, cause: MailboxDropCause) {
        var index = MailboxIndex(limits: limits)
        for id in 1...3 { _ = admit(&index, UInt64(id), to: 0xd1) }
        let outcome = admit(&index, 4, to: 0xd1)
        #expect(outcome == .held(evicted: [MailboxEviction(messageID: message(1), cause: cause)]))
        #expect(index.count == 3 && index.entries[message(1)] == nil && index.counters[cause] == 1)
    }

    @Test("A neighbour minting 10,000 absent recipients evicts only its own mail; honest mail survives")
    func mintingNeighbour() {
        let limits = MailboxLimits(totalMessages: 2_000, messagesPerDepositor: 500)
        var index = MailboxIndex(limits: limits)
        // Five honest senders, 20 messages each for one absent recipient, through two neighbours.
        for sender in 0..<5 {
            for n in 0..<20 {
                _ = admit(&index, UInt64(sender * 100 + n), to: 0xd1, from: UInt8(0xa0 + sender), via: UInt8(0xb0 + sender % 2))
            }
        }
        // The hostile neighbour 0xee: 10,000 minted recipients and origins.
        for n in 0..<10_000 {
            let outcome = index.admit(
                messageID: message(1_000_000 + UInt64(n)), recipient: mintedNode(UInt64(n)),
                origin: mintedNode(1_000_000 + UInt64(n)), depositor: node(0xee), size: 4_000, timestamp: epoch,
                now: epoch)
            if case .refused = outcome { Issue.record("a flood message was refused rather than evicting its own") }
        }
        #expect(index.count(for: node(0xd1)) == 100, "every honest message survives")
        #expect(index.count(fromDepositor: node(0xee)) <= 500)
        #expect(index.totalBytes <= limits.totalBytes)
        let dropped = MailboxDropCause.allCases.reduce(0) { $0 + index.counters[$1] }
        #expect(dropped == 10_000 - UInt64(index.count(fromDepositor: node(0xee))), "every drop is counted by cause")
    }

    @Test("When the total is full the heaviest depositor pays, not the lighter honest one")
    func totalCapChargesHeaviest() {
        var index = MailboxIndex(limits: MailboxLimits(totalMessages: 10))
        for id in 1...2 { _ = admit(&index, UInt64(id), to: 0xd1, via: 0xb1) }
        for id in 3...10 { _ = admit(&index, UInt64(id), to: UInt8(id), via: 0xee) }
        #expect(admit(&index, 11, to: 0xd2, via: 0xb1) == .held(evicted: [MailboxEviction(messageID: message(3), cause: .evictedTotalCap)]))
        #expect(index.entries[message(1)] != nil && index.entries[message(2)] != nil)
    }

    @Test("Retention: a message held 24 h is expired and counted; a younger one stays")
    func expiry() {
        var index = MailboxIndex(limits: MailboxLimits())
        _ = admit(&index, 1, to: 0xd1, at: epoch)
        _ = admit(&index, 2, to: 0xd1, at: epoch + 3_600_000)
        #expect(index.expire(now: epoch + 24 * 3_600_000 - 1).isEmpty)
        #expect(index.expire(now: epoch + 24 * 3_600_000) == [message(1)])
        #expect(index.count == 1 && index.counters[.expired] == 1)
    }

    @Test("Hand-over to a linked recipient: oldest first, paced per tick, removed only when handed over")
    func handOver() {
        var index = MailboxIndex(limits: MailboxLimits(handOversPerTick: 8))
        for id in 1...20 { _ = admit(&index, UInt64(id), to: 0xd1, at: epoch + UInt64(id)) }
        _ = admit(&index, 99, to: 0xd2)
        let batch = index.handOverBatch(for: node(0xd1))
        #expect(batch.map(\.messageID) == (1...8).map { message(UInt64($0)) })
        #expect(index.handOverBatch(for: node(0xd1)) == batch, "nothing leaves before the link accepted it")
        for entry in batch { index.handedOver(entry.messageID) }
        #expect(index.handOverBatch(for: node(0xd1)).first?.messageID == message(9))
        #expect(index.counters.delivered == 8 && index.count == 13)
    }

    @Test("Copies toward a recipient some hops away: at most once per interval, the mailbox keeps its copy")
    func copiesPerInterval() {
        var index = MailboxIndex(limits: MailboxLimits(copyIntervalMilliseconds: 600_000))
        _ = admit(&index, 1, to: 0xd1)
        #expect(index.copiesDue(for: node(0xd1), now: epoch).count == 1)
        #expect(index.copiesDue(for: node(0xd1), now: epoch + 599_999).isEmpty)
        #expect(index.copiesDue(for: node(0xd1), now: epoch + 600_000).count == 1)
        #expect(index.count == 1 && index.counters.copiesSent == 2)
    }

    @Test("Summaries per recipient give count, bytes and the oldest deposit, never content")
    func summaries() {
        var index = MailboxIndex(limits: MailboxLimits())
        _ = admit(&index, 1, to: 0xd1, size: 100, at: epoch + 5)
        _ = admit(&index, 2, to: 0xd1, size: 50, at: epoch + 1)
        _ = admit(&index, 3, to: 0xd2, size: 10, at: epoch)
        #expect(index.summaries() == [
            MailboxRecipientSummary(recipient: node(0xd1), count: 2, bytes: 150, oldestDepositedAt: epoch + 1),
            MailboxRecipientSummary(recipient: node(0xd2), count: 1, bytes: 10, oldestDepositedAt: epoch),
        ])
    }
}
