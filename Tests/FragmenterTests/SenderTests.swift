import MeshProtocol
import Testing
@testable import Fragmenter

@Suite("Sending")
struct SenderTests {
    @Test("A transfer ID is not reused while held, and is released after the hold time")
    func noReuseWhileInFlight() throws {
        var sender = FrameSender(random: ScriptedIDs([1, 1, 1, 2, 1, 2, 3, 1]))
        let message = [UInt8](repeating: 5, count: 40)
        #expect(try sender.split(message, kind: 2, mtu: 23, now: at(0)).transferID == 1)
        #expect(try sender.split(message, kind: 2, mtu: 23, now: at(1)).transferID == 2)
        #expect(try sender.split(message, kind: 2, mtu: 23, now: at(2)).transferID == 3)
        #expect(sender.heldTransferIDCount == 3)
        // Hold time is twice the 10 s reassembly timeout: ID 1 (used at 0 s) is free at 20 s, not before.
        #expect(sender.limits.transferIDHoldTime == .seconds(20))
        sender.expire(now: at(19.999))
        #expect(sender.isHeld(1))
        sender.expire(now: at(20))
        #expect(!sender.isHeld(1) && sender.isHeld(2) && sender.isHeld(3))
        #expect(try sender.split(message, kind: 2, mtu: 23, now: at(20)).transferID == 1)
    }

    @Test("Every frame of a split carries the chosen ID and kind")
    func framesCarryTheID() throws {
        var sender = FrameSender(random: SplitMix64(seed: 42))
        let split = try sender.split([UInt8](repeating: 9, count: 500), kind: 0x04, mtu: 185, now: .zero)
        #expect(split.frames.count == 3)
        for frame in split.frames {
            let header = try FrameHeader(parsing: frame)
            #expect(header.transferID == split.transferID && header.kind == 0x04)
        }
        #expect(sender.isHeld(split.transferID))
    }

    @Test("A source that only repeats held IDs gives a typed error, not a hang")
    func exhaustedSource() throws {
        var sender = FrameSender(random: ScriptedIDs([7]))
        _ = try sender.split([1], kind: 2, mtu: 23, now: .zero)
        #expect(throws: SplitError.transferIDUnavailable(attempts: FrameSender.maxDraws)) {
            try sender.split([1], kind: 2, mtu: 23, now: at(1))
        }
        #expect(sender.heldTransferIDCount == 1)
    }

    @Test("The held-ID record is bounded; the oldest ID goes first", arguments: [1, 3, 8])
    func heldRecordBounded(cap: Int) throws {
        let ids = (1...20).map { UInt32($0) }
        var sender = FrameSender(limits: FragmenterLimits(heldTransferIDsPerLink: cap), random: ScriptedIDs(ids))
        for step in 0..<20 {
            _ = try sender.split([1, 2, 3], kind: 2, mtu: 23, now: at(Double(step) * 0.01))
            #expect(sender.heldTransferIDCount == min(step + 1, cap))
        }
        #expect(sender.isHeld(20) && !sender.isHeld(UInt32(20 - cap)))
    }

    @Test("The MTU can change between messages on one link", arguments: [(185, 23), (23, 517), (517, 27), (247, 185)])
    func mtuChange(first: Int, second: Int) throws {
        var random = SplitMix64(seed: UInt64(first * 1000 + second))
        var sender = FrameSender(random: SplitMix64(seed: 3))
        var reassembler = Reassembler()
        let one = random.bytes(1_500), two = random.bytes(1_500)
        let splitOne = try sender.split(one, kind: 2, mtu: first, now: at(0))
        let splitTwo = try sender.split(two, kind: 3, mtu: second, now: at(0.5))
        #expect(splitOne.frames.allSatisfy { $0.count <= first } && splitOne.frames[0].count == first)
        #expect(splitTwo.frames.allSatisfy { $0.count <= second } && splitTwo.frames[0].count == second)
        #expect(splitOne.transferID != splitTwo.transferID)
        var completed: [ReassemblyResult] = []
        // Interleave the two transfers on the same link.
        for index in 0..<max(splitOne.frames.count, splitTwo.frames.count) {
            for frames in [splitOne.frames, splitTwo.frames] where index < frames.count {
                let result = try reassembler.receive(frames[index], now: at(1))
                if result != .incomplete { completed.append(result) }
            }
        }
        #expect(Set(completed) == [
            .complete(kind: 2, transferID: splitOne.transferID, message: one),
            .complete(kind: 3, transferID: splitTwo.transferID, message: two),
        ])
    }
}
