import Testing
@testable import Fragmenter

@Suite("Timeouts and caps")
struct EvictionTests {
    @Test("An incomplete transfer is freed on the first call at or after the timeout", arguments: [
        Duration.seconds(10), .seconds(2), .milliseconds(500),
    ])
    func timeoutOnNextCall(timeout: Duration) throws {
        var reassembler = Reassembler(limits: FragmenterLimits(reassemblyTimeout: timeout))
        #expect(try reassembler.receive(rawFrame(id: 1, seq: 0, total: 2, length: 30), now: .zero) == .incomplete)
        #expect(throws: FragmentError.frameTooShort(length: 0)) {
            try reassembler.receive([], now: timeout - .milliseconds(1))
        }
        #expect(reassembler.isInFlight(1) && reassembler.counters.timedOut == 0)
        // Even a rejected frame passes `now`, and that frees the expired transfer.
        #expect(throws: FragmentError.frameTooShort(length: 0)) { try reassembler.receive([], now: timeout) }
        #expect(!reassembler.isInFlight(1) && reassembler.bufferedBytes == 0 && reassembler.counters.timedOut == 1)
        // The late second half starts a new transfer rather than completing the old one.
        #expect(try reassembler.receive(rawFrame(id: 1, seq: 1, total: 2, length: 30), now: timeout) == .incomplete)
    }

    @Test("expire(now:) frees only transfers past the timeout, on every link")
    func explicitExpire() throws {
        var links = LinkReassemblers<Int>()
        _ = try links.receive(rawFrame(id: 1, seq: 0, total: 2, length: 10), on: 1, now: at(0))
        _ = try links.receive(rawFrame(id: 2, seq: 0, total: 2, length: 10), on: 2, now: at(5))
        links.expire(now: at(9.999))
        #expect(links.transferCount(on: 1) == 1 && links.transferCount(on: 2) == 1)
        links.expire(now: at(10))
        #expect(links.transferCount(on: 1) == 0 && links.transferCount(on: 2) == 1)
        #expect(links.bufferedBytes == links.bufferedBytes(on: 2) && links.counters.timedOut == 1)
        links.expire(now: at(15))
        #expect(links.bufferedBytes == 0 && links.counters.timedOut == 2)
    }

    @Test("Links never touch each other's transfers, even with the same transfer ID")
    func perLinkIsolation() throws {
        var links = LinkReassemblers<String>()
        #expect(try links.receive(rawFrame(kind: 2, id: 77, seq: 0, total: 2, slice: [1]), on: "a", now: .zero) == .incomplete)
        #expect(try links.receive(rawFrame(kind: 3, id: 77, seq: 0, total: 3, slice: [9]), on: "b", now: .zero) == .incomplete)
        // A mismatch on link b drops only b's transfer 77.
        #expect(throws: FragmentError.kindMismatch(expected: 3, received: 2)) {
            try links.receive(rawFrame(kind: 2, id: 77, seq: 1, total: 3, slice: [2]), on: "b", now: .zero)
        }
        #expect(links.transferCount(on: "a") == 1 && links.transferCount(on: "b") == 0)
        #expect(try links.receive(rawFrame(kind: 2, id: 77, seq: 1, total: 2, slice: [2]), on: "a", now: .zero)
            == .complete(kind: 2, transferID: 77, message: [1, 2]))
        #expect(links.counters(on: "a").kindMismatch == 0 && links.counters(on: "b").kindMismatch == 1)
        // Removing a link drops its transfers and keeps its counters in the total.
        _ = try links.receive(rawFrame(id: 5, seq: 0, total: 2, length: 3), on: "b", now: .zero)
        links.removeLink("b")
        #expect(links.bufferedBytes == 0 && links.counters.droppedWithLink == 1 && links.counters.kindMismatch == 1)
    }

    @Test("Beyond the transfer cap the oldest transfer is evicted", arguments: [1, 3, 32])
    func transferCap(cap: Int) throws {
        var reassembler = Reassembler(limits: FragmenterLimits(maxTransfersPerLink: cap))
        for id in 0..<UInt32(cap + 2) {
            _ = try reassembler.receive(rawFrame(id: id, seq: 0, total: 3, length: 8), now: at(Double(id) * 0.01))
            #expect(reassembler.transferCount == min(Int(id) + 1, cap))
        }
        #expect(reassembler.counters.evictedTransferCap == 2)
        #expect(!reassembler.isInFlight(0) && !reassembler.isInFlight(1) && reassembler.isInFlight(UInt32(cap + 1)))
        // A fragment for a transfer already held never evicts anything.
        #expect(try reassembler.receive(rawFrame(id: UInt32(cap + 1), seq: 1, total: 3, length: 8), now: at(1)) == .incomplete)
        #expect(reassembler.counters.evictedTransferCap == 2)
    }

    @Test("The link byte cap evicts the link's oldest transfers first")
    func linkByteCap() throws {
        var reassembler = Reassembler(limits: FragmenterLimits(maxBufferedBytesPerLink: 300))
        for id in UInt32(1)...3 {
            _ = try reassembler.receive(rawFrame(id: id, seq: 0, total: 3, length: 100), now: at(Double(id)))
            #expect(reassembler.bufferedBytes <= 300)
        }
        #expect(reassembler.counters.evictedLinkByteCap == 1)
        #expect(!reassembler.isInFlight(1) && reassembler.isInFlight(2) && reassembler.isInFlight(3))
        #expect(reassembler.bufferedBytes == 2 * (100 + FragmenterLimits.bookkeepingBytesPerFragment))
        // A fragment that still leaves its transfer incomplete makes room the same way.
        _ = try reassembler.receive(rawFrame(id: 3, seq: 1, total: 3, length: 100), now: at(4))
        #expect(reassembler.counters.evictedLinkByteCap == 2 && reassembler.transferCount == 1)
        #expect(reassembler.bufferedBytes == 2 * (100 + FragmenterLimits.bookkeepingBytesPerFragment))
    }

    @Test("A completing fragment needs no room, so it evicts nothing")
    func completingFragmentEvictsNothing() throws {
        var reassembler = Reassembler(limits: FragmenterLimits(maxBufferedBytesPerLink: 300))
        _ = try reassembler.receive(rawFrame(id: 1, seq: 0, total: 2, length: 100), now: at(0))
        _ = try reassembler.receive(rawFrame(id: 2, seq: 0, total: 2, length: 100), now: at(1))
        #expect(try reassembler.receive(rawFrame(id: 2, seq: 1, total: 2, length: 100), now: at(2))
            == .complete(kind: 2, transferID: 2, message: [UInt8](repeating: 0xAB, count: 200)))
        #expect(reassembler.isInFlight(1) && reassembler.counters.evictedLinkByteCap == 0)
        #expect(reassembler.bufferedBytes == 100 + FragmenterLimits.bookkeepingBytesPerFragment)
    }

    @Test("The total cap makes the receiving link give up its own oldest transfer, never another link's")
    func totalByteCap() throws {
        let cost = 100 + FragmenterLimits.bookkeepingBytesPerFragment
        var links = LinkReassemblers<Int>(limits: FragmenterLimits(maxBufferedBytesPerLink: 1_000, maxBufferedBytesTotal: 3 * cost))
        _ = try links.receive(rawFrame(id: 1, seq: 0, total: 2, length: 100), on: 1, now: at(0))
        _ = try links.receive(rawFrame(id: 2, seq: 0, total: 2, length: 100), on: 1, now: at(1))
        _ = try links.receive(rawFrame(id: 3, seq: 0, total: 2, length: 100), on: 2, now: at(2))
        #expect(links.bufferedBytes == 3 * cost)
        // Link 2 holds only its own transfer 3; the new one pushes transfer 3 out, link 1 is untouched.
        _ = try links.receive(rawFrame(id: 4, seq: 0, total: 2, length: 100), on: 2, now: at(3))
        #expect(links.transferCount(on: 1) == 2 && links.transferCount(on: 2) == 1)
        #expect(links.counters(on: 2).evictedTotalByteCap == 1 && links.bufferedBytes == 3 * cost)
        // Link 3 holds nothing it could give up: its fragment is refused and link 1 and 2 keep theirs.
        #expect(throws: FragmentError.totalBufferFull) {
            try links.receive(rawFrame(id: 5, seq: 0, total: 2, length: 100), on: 3, now: at(4))
        }
        #expect(links.transferCount(on: 1) == 2 && links.transferCount(on: 2) == 1)
        #expect(links.bufferedBytes <= links.limits.maxBufferedBytesTotal)
        // Once link 1's transfers time out, link 3 gets room without waiting for an explicit expire.
        #expect(try links.receive(rawFrame(id: 5, seq: 0, total: 2, length: 100), on: 3, now: at(11)) == .incomplete)
        #expect(links.transferCount(on: 1) == 0 && links.counters.timedOut == 2)
    }
}
