import MailboxCourier
import MeshLink
import MeshProtocol
import Testing

/// PROTOCOL.md G2: a held message handed over on a link leaves the mailbox only once that link
/// stayed up `confirmAfter` after it was sent; lost with its link, it goes again on the next one.
@Suite("Hand-over ledger: removed once the link proved itself")
struct HandOverLedgerTests {
    private let recipient = try! NodeID(bytes: [UInt8](repeating: 0xd1, count: 16))
    private let other = try! NodeID(bytes: [UInt8](repeating: 0xd2, count: 16))
    private func id(_ n: UInt8) -> MessageID { try! MessageID(bytes: [UInt8](repeating: n, count: 16)) }

    @Test("Confirmed only after the link stayed up long enough, oldest first, and only for that recipient")
    func confirmedAfterDelay() {
        var ledger = HandOverLedger()
        ledger.record(id(2), recipient: recipient, link: LinkID(7), now: 1_100)
        ledger.record(id(1), recipient: recipient, link: LinkID(7), now: 1_000)
        ledger.record(id(9), recipient: other, link: LinkID(8), now: 1_000)
        #expect(ledger.isAwaiting(id(1)) && ledger.count == 3)
        #expect(ledger.settle(recipient: recipient, now: 2_999, isUp: { _ in true }).isEmpty, "not yet: 1,999 ms")
        #expect(ledger.settle(recipient: recipient, now: 3_000, isUp: { _ in true }) == [id(1)])
        #expect(ledger.settle(recipient: recipient, now: 3_100, isUp: { _ in true }) == [id(2)])
        #expect(!ledger.isAwaiting(id(1)) && ledger.isAwaiting(id(9)) && ledger.count == 1)
    }

    @Test("Lost with its link: forgotten unconfirmed, so it is sent again", arguments: [1_500, 5_000])
    func lostWithLink(at now: Int) {
        var ledger = HandOverLedger()
        ledger.record(id(1), recipient: recipient, link: LinkID(7), now: 1_000)
        #expect(ledger.settle(recipient: recipient, now: UInt64(now), isUp: { $0 != LinkID(7) }).isEmpty)
        #expect(!ledger.isAwaiting(id(1)))
    }

    @Test("Messages no longer held (expired, evicted) are forgotten")
    func prune() {
        var ledger = HandOverLedger()
        ledger.record(id(1), recipient: recipient, link: LinkID(7), now: 1_000)
        ledger.record(id(2), recipient: recipient, link: LinkID(7), now: 1_000)
        ledger.prune { $0 == id(2) }
        #expect(!ledger.isAwaiting(id(1)) && ledger.isAwaiting(id(2)))
    }
}
