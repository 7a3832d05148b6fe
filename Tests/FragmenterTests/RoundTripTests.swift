import MeshProtocol
import Testing
@testable import Fragmenter

/// Message sizes: the named edge sizes plus seeded random ones up to 64 KiB.
private let roundTripSizes: [Int] = {
    var random = SplitMix64(seed: 0x5EED_0001)
    return [1, 9, 14, 15, 100, 1_000, 65_536] + (0..<5).map { _ in random.int(1...65_536) }
}()

/// MTUs: the usual BLE values plus seeded random ones from 23 to 517.
private let roundTripMTUs: [Int] = {
    var random = SplitMix64(seed: 0x5EED_0002)
    return [23, 27, 185, 247, 517] + (0..<3).map { _ in random.int(23...517) }
}()

@Suite("Round trips")
struct RoundTripTests {
    @Test("Shuffled frames with duplicates reassemble byte-identical", arguments: roundTripSizes, roundTripMTUs)
    func shuffledWithDuplicates(size: Int, mtu: Int) throws {
        var random = SplitMix64(seed: UInt64(size) << 16 | UInt64(mtu))
        let message = random.bytes(size)
        let kind = UInt8(random.int(1...5))
        var sender = FrameSender(random: SplitMix64(seed: random.next()))
        let split = try sender.split(message, kind: kind, mtu: mtu, now: .zero)
        #expect(split.frames.allSatisfy { $0.count <= mtu })

        var deliveries = split.frames
        let duplicateCount = random.int(1...max(1, split.frames.count / 4 + 1))
        for _ in 0..<duplicateCount {
            deliveries.append(split.frames[random.int(0...split.frames.count - 1)])
        }
        deliveries.shuffle(using: &random)

        var reassembler = Reassembler()
        var completions: [ReassemblyResult] = []
        var ignored = 0
        for (index, frame) in deliveries.enumerated() {
            switch try reassembler.receive(frame, now: .milliseconds(index)) {
            case .incomplete: break
            case .duplicate: ignored += 1
            case let complete: completions.append(complete)
            }
            #expect(reassembler.bufferedBytes <= reassembler.limits.maxBufferedBytesPerLink)
        }
        #expect(completions == [.complete(kind: kind, transferID: split.transferID, message: message)])
        #expect(ignored == duplicateCount)
        #expect(reassembler.counters.accepted == split.frames.count)
        #expect(reassembler.counters.duplicate + reassembler.counters.lateDuplicate == duplicateCount)
        #expect(reassembler.counters.completed == 1 && reassembler.counters.rejected == 0)
        #expect(reassembler.bufferedBytes == 0 && reassembler.transferCount == 0)
    }

    @Test("Many messages in flight at once on several links all complete", arguments: [UInt64(1), 2, 3])
    func interleavedTransfers(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var reassemblers = LinkReassemblers<Int>()
        var expected: Set<ReassemblyResult> = []
        var deliveries: [(link: Int, frame: [UInt8])] = []
        for link in 0..<4 {
            var sender = FrameSender(random: SplitMix64(seed: seed &* 31 &+ UInt64(link)))
            let mtu = random.int(23...517)
            for _ in 0..<8 {
                let message = random.bytes(random.int(1...6_000))
                let split = try sender.split(message, kind: 2, mtu: mtu, now: .zero)
                expected.insert(.complete(kind: 2, transferID: split.transferID, message: message))
                deliveries += split.frames.map { (link, $0) }
            }
        }
        deliveries.shuffle(using: &random)
        var completed: Set<ReassemblyResult> = []
        for delivery in deliveries {
            let result = try reassemblers.receive(delivery.frame, on: delivery.link, now: .seconds(1))
            if result != .incomplete { completed.insert(result) }
        }
        #expect(completed == expected)
        #expect(reassemblers.bufferedBytes == 0 && reassemblers.counters.completed == 32)
    }
}
