import MeshProtocol
import Testing
@testable import Fragmenter

@Suite("Charging what is held")
struct ChargeTests {
    @Test("Every transfer is charged at least what is reserved for its buffers, in any arrival order",
          arguments: [23, 100, 517], [false, true])
    func chargeCoversAllocation(mtu: Int, shuffled: Bool) throws {
        var random = SplitMix64(seed: UInt64(mtu) << 1 | (shuffled ? 1 : 0))
        var sender = FrameSender(random: SplitMix64(seed: random.next()))
        let message = random.bytes(61_000)
        let split = try sender.split(message, kind: 2, mtu: mtu, now: .zero)
        var frames = split.frames
        let last = frames.removeLast()
        if shuffled { frames.shuffle(using: &random) }
        var reassembler = Reassembler()
        for frame in frames {
            #expect(try reassembler.receive(frame, now: .zero) == .incomplete)
            #expect(reassembler.allocatedBytes <= reassembler.bufferedBytes)
            #expect(reassembler.bufferedBytes <= reassembler.limits.maxBufferedBytesPerLink)
        }
        #expect(reassembler.bufferedBytes >= message.count - (last.count - FrameHeader.length))
        #expect(try reassembler.receive(last, now: .zero) == .complete(kind: 2, transferID: split.transferID, message: message))
        #expect(reassembler.bufferedBytes == 0 && reassembler.allocatedBytes == 0)
    }

    @Test("A message's buffer never grows past the whole message", arguments: [23, 185, 517])
    func bufferStopsAtWholeMessage(mtu: Int) throws {
        var random = SplitMix64(seed: UInt64(mtu))
        var sender = FrameSender(random: SplitMix64(seed: random.next()))
        let message = random.bytes(61_000)
        let frames = try sender.split(message, kind: 2, mtu: mtu, now: .zero).frames
        var reassembler = Reassembler()
        for frame in frames.dropLast() { _ = try reassembler.receive(frame, now: .zero) }
        let sliceLength = frames[0].count - FrameHeader.length
        let wholeMessage = frames.count * sliceLength
        // Besides the slices: the piece list (at most twice 8 bytes per fragment) and the bitmap.
        let bookkeeping = 2 * 8 * frames.count + 8 * (frames.count / 64 + 1)
        #expect(reassembler.allocatedBytes <= wholeMessage + bookkeeping)
    }
}
