import Testing
@testable import Fragmenter

/// One bad input: frames that are taken first, the bad frame, its error and its counter.
struct BadInput: Sendable, CustomTestStringConvertible {
    let name: String
    var limits = FragmenterLimits()
    var setup: [[UInt8]] = []
    let frame: [UInt8]
    let error: FragmentError
    let counter: WritableKeyPath<FragmenterCounters, Int> & Sendable
    /// Whether the transfer the setup frames started is dropped by the bad frame.
    var dropsTransfer = false
    var testDescription: String { name }
}

private let badInputs: [BadInput] = [
    BadInput(name: "empty frame", frame: [], error: .frameTooShort(length: 0), counter: \.frameTooShort),
    BadInput(name: "1-byte frame", frame: [0x02], error: .frameTooShort(length: 1), counter: \.frameTooShort),
    BadInput(name: "8-byte frame", frame: [2, 0, 0, 0, 1, 0, 0, 0], error: .frameTooShort(length: 8),
             counter: \.frameTooShort),
    BadInput(name: "total 0", frame: rawFrame(id: 1, seq: 0, total: 0, length: 4), error: .zeroTotal,
             counter: \.zeroTotal),
    BadInput(name: "sequence equal to total", frame: rawFrame(id: 1, seq: 3, total: 3, length: 4),
             error: .sequenceOutOfRange(sequence: 3, total: 3), counter: \.sequenceOutOfRange),
    BadInput(name: "sequence 0xFFFF of 1", frame: rawFrame(id: 1, seq: 0xFFFF, total: 1, length: 4),
             error: .sequenceOutOfRange(sequence: 0xFFFF, total: 1), counter: \.sequenceOutOfRange),
    BadInput(name: "header without slice", frame: rawFrame(id: 1, seq: 0, total: 2, slice: []), error: .emptySlice,
             counter: \.emptySlice),
    BadInput(name: "200 frames of 500 bytes implied", frame: rawFrame(id: 1, seq: 0, total: 200, length: 500),
             error: .messageTooLarge(impliedSize: 99_501, limit: 65_536), counter: \.messageTooLarge),
    BadInput(name: "last frame of 40000 bytes in 2", frame: rawFrame(id: 1, seq: 1, total: 2, length: 40_000),
             error: .messageTooLarge(impliedSize: 80_000, limit: 65_536), counter: \.messageTooLarge),
    BadInput(name: "single frame above the cap", frame: rawFrame(id: 1, seq: 0, total: 1, length: 65_537),
             error: .messageTooLarge(impliedSize: 65_537, limit: 65_536), counter: \.messageTooLarge),
    BadInput(name: "transfer proven too large by its own fragments",
             setup: [rawFrame(id: 4, seq: 0, total: 3, length: 32_767), rawFrame(id: 4, seq: 1, total: 3, length: 32_767)],
             frame: rawFrame(id: 4, seq: 2, total: 3, length: 21_845),
             error: .messageTooLarge(impliedSize: 87_379, limit: 65_536), counter: \.messageTooLarge,
             dropsTransfer: true),
    BadInput(name: "kind differs from its transfer", setup: [rawFrame(kind: 2, id: 5, seq: 0, total: 3, length: 10)],
             frame: rawFrame(kind: 3, id: 5, seq: 1, total: 3, length: 10),
             error: .kindMismatch(expected: 2, received: 3), counter: \.kindMismatch, dropsTransfer: true),
    BadInput(name: "total differs from its transfer", setup: [rawFrame(id: 6, seq: 0, total: 3, length: 10)],
             frame: rawFrame(id: 6, seq: 1, total: 4, length: 10),
             error: .totalMismatch(expected: 3, received: 4), counter: \.totalMismatch, dropsTransfer: true),
    BadInput(name: "transfer larger than the link cap", limits: FragmenterLimits(maxBufferedBytesPerLink: 100),
             frame: rawFrame(id: 7, seq: 0, total: 2, length: 90), error: .linkBufferFull, counter: \.linkBufferFull),
    BadInput(name: "transfer outgrowing the link cap", limits: FragmenterLimits(maxBufferedBytesPerLink: 150),
             setup: [rawFrame(id: 7, seq: 0, total: 3, length: 60)],
             frame: rawFrame(id: 7, seq: 1, total: 3, length: 60), error: .linkBufferFull, counter: \.linkBufferFull,
             dropsTransfer: true),
    BadInput(name: "transfer larger than the total cap",
             limits: FragmenterLimits(maxBufferedBytesPerLink: 1_000, maxBufferedBytesTotal: 100),
             frame: rawFrame(id: 8, seq: 0, total: 2, length: 90), error: .totalBufferFull, counter: \.totalBufferFull),
]

@Suite("Bad inputs")
struct BadInputTests {
    @Test("Each bad input gives its typed error and adds 1 to its own counter", arguments: badInputs)
    func rejected(bad: BadInput) throws {
        var reassembler = Reassembler(limits: bad.limits)
        for frame in bad.setup {
            #expect(try reassembler.receive(frame, now: .zero) == .incomplete)
        }
        let before = reassembler.counters
        #expect(throws: bad.error) { try reassembler.receive(bad.frame, now: .zero) }
        var expected = before
        expected[keyPath: bad.counter] += 1
        #expect(reassembler.counters == expected)
        #expect(reassembler.counters.rejected == 1)
        #expect(reassembler.transferCount == (bad.setup.isEmpty || bad.dropsTransfer ? 0 : 1))
        if bad.dropsTransfer { #expect(reassembler.bufferedBytes == 0) }
    }

    @Test("The same bad inputs through a link set count on that link only", arguments: badInputs)
    func rejectedPerLink(bad: BadInput) throws {
        var links = LinkReassemblers<String>(limits: bad.limits)
        for frame in bad.setup { _ = try links.receive(frame, on: "a", now: .zero) }
        #expect(throws: bad.error) { try links.receive(bad.frame, on: "a", now: .zero) }
        #expect(links.counters(on: "a")[keyPath: bad.counter] == 1)
        #expect(links.counters(on: "b") == FragmenterCounters())
        #expect(links.counters[keyPath: bad.counter] == 1)
    }

    @Test("A repeated fragment is ignored and counted, not stored twice")
    func duplicateIgnored() throws {
        var reassembler = Reassembler()
        let frame = rawFrame(id: 9, seq: 1, total: 3, length: 20)
        #expect(try reassembler.receive(frame, now: .zero) == .incomplete)
        let bytes = reassembler.bufferedBytes
        #expect(try reassembler.receive(frame, now: .zero) == .duplicate)
        #expect(reassembler.counters.duplicate == 1 && reassembler.bufferedBytes == bytes)
    }

    @Test("A fragment of a just-completed transfer is ignored, not delivered again", arguments: [1, 2])
    func lateDuplicate(total: Int) throws {
        var reassembler = Reassembler()
        let frames = (0..<total).map { rawFrame(id: 10, seq: UInt16($0), total: UInt16(total), length: 5) }
        for frame in frames { _ = try reassembler.receive(frame, now: at(0)) }
        #expect(reassembler.counters.completed == 1)
        #expect(try reassembler.receive(frames[0], now: at(9.9)) == .duplicate)
        #expect(reassembler.counters.lateDuplicate == 1 && reassembler.transferCount == 0)
        // After one timeout the ID is forgotten: the same frames form a new message.
        for frame in frames { _ = try reassembler.receive(frame, now: at(10)) }
        #expect(reassembler.counters.completed == 2)
    }
}
