import MeshProtocol
import Testing
@testable import Fragmenter

@Suite("Splitting")
struct SplitterTests {
    @Test("Frames fit the MTU, slices are full except the last", arguments: [1, 13, 14, 15, 28, 29, 1000], [10, 23, 185, 517])
    func layout(size: Int, mtu: Int) throws {
        var random = SplitMix64(seed: UInt64(size * 1000 + mtu))
        let message = random.bytes(size)
        let frames = try FrameSplitter.frames(of: message, kind: 0x03, transferID: 9, mtu: mtu)
        let slice = mtu - FrameHeader.length
        #expect(frames.count == (size + slice - 1) / slice)
        #expect(frames.count == FrameSplitter.frameCount(messageSize: size, mtu: mtu))
        for (index, frame) in frames.enumerated() {
            let header = try FrameHeader(parsing: frame)
            #expect(header == FrameHeader(kind: 0x03, transferID: 9, sequence: UInt16(index), total: UInt16(frames.count)))
            #expect(frame.count <= mtu)
            if index < frames.count - 1 { #expect(frame.count == mtu) }
        }
        #expect(frames.flatMap { $0.dropFirst(FrameHeader.length) } == message)
    }

    struct BadSplit: Sendable, CustomTestStringConvertible {
        let size: Int
        let mtu: Int
        let maxMessageSize: Int
        let error: SplitError
        var testDescription: String { "\(size) bytes at MTU \(mtu) → \(error)" }
    }

    @Test("Unsplittable messages give typed errors", arguments: [
        BadSplit(size: 0, mtu: 23, maxMessageSize: 65_536, error: .emptyMessage),
        BadSplit(size: 65_537, mtu: 517, maxMessageSize: 65_536, error: .messageTooLarge(size: 65_537, limit: 65_536)),
        BadSplit(size: 101, mtu: 23, maxMessageSize: 100, error: .messageTooLarge(size: 101, limit: 100)),
        BadSplit(size: 10, mtu: 9, maxMessageSize: 65_536, error: .mtuTooSmall(mtu: 9, minimum: 10)),
        BadSplit(size: 10, mtu: 0, maxMessageSize: 65_536, error: .mtuTooSmall(mtu: 0, minimum: 10)),
        BadSplit(size: 65_536, mtu: 10, maxMessageSize: 65_536, error: .tooManyFrames(needed: 65_536, limit: 65_535)),
        BadSplit(size: 200_000, mtu: 12, maxMessageSize: 1 << 20, error: .tooManyFrames(needed: 66_667, limit: 65_535)),
    ])
    func badSplits(bad: BadSplit) {
        let message = [UInt8](repeating: 1, count: bad.size)
        #expect(throws: bad.error) {
            try FrameSplitter.frames(of: message, kind: 2, transferID: 1, mtu: bad.mtu, maxMessageSize: bad.maxMessageSize)
        }
        var sender = FrameSender(limits: FragmenterLimits(maxMessageSize: bad.maxMessageSize), random: SplitMix64(seed: 1))
        #expect(throws: bad.error) { try sender.split(message, kind: 2, mtu: bad.mtu, now: .zero) }
        #expect(sender.heldTransferIDCount == 0)
    }

    @Test("The largest message fits in 65535 frames at MTU 11")
    func largestFrameCount() throws {
        let message = [UInt8](repeating: 7, count: 65_536)
        let frames = try FrameSplitter.frames(of: message, kind: 2, transferID: 1, mtu: 11)
        #expect(frames.count == 32_768)
        let limit = FragmenterLimits(maxMessageSize: 65_535)
        let exact = try FrameSplitter.frames(of: Array(message.prefix(65_535)), kind: 2, transferID: 1, mtu: 10,
                                             maxMessageSize: limit.maxMessageSize)
        #expect(exact.count == 65_535)
        #expect(try FrameHeader(parsing: exact[65_534]) == FrameHeader(kind: 2, transferID: 1, sequence: 65_534, total: 65_535))
    }
}
