import Fragmenter
import FuzzSupport

/// Frame headers and reassembly. Input byte 0 picks the mode. Even: five limit bytes, then records `op, step, length, frame`
/// fed to a `LinkReassemblers` of four links (op bits 0–1 the link, bits 2–3 == 3 a control
/// record: expire, or remove the link when bit 4 is set; step × 100 ms advances the clock).
/// Odd: `mtu, kind, order, transferID(4)`, then a message split by `FrameSplitter` and fed back
/// in a shuffled order, which must reassemble to the same bytes.
/// The driver entry (SwiftPM's `main`), or `--write-seeds DIR`.
@_cdecl("fuzz_frames_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, seeds: frameSeeds) { data, size in data.map { fuzz($0, size) } ?? 0 }
}

/// One input, in the mode its first byte picks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    if input.byte() & 1 == 0 {
        var run = FrameSequenceRun(limits: FrameSequenceRun.limits(from: input.take(5)))
        run.feed(&input)
    } else {
        SplitRoundTrip.run(&input)
    }
    return 0
}

/// Feeds frames cut from the input to four links' reassemblers, checking every cap after each.
struct FrameSequenceRun {
    var reassemblers: LinkReassemblers<UInt8>
    var now = Duration.zero
    var framesFed = 0
    var completed = 0

    init(limits: FragmenterLimits) { reassemblers = LinkReassemblers(limits: limits) }

    /// Small caps, so that eviction and every cap actually bind.
    static func limits(from bytes: [UInt8]) -> FragmenterLimits {
        let b = bytes + [UInt8](repeating: 0, count: 5 - bytes.count)
        return FragmenterLimits(
            maxMessageSize: 1 + Int(b[0]) * 16, reassemblyTimeout: .seconds(Int(b[4] % 16)),
            maxTransfersPerLink: 1 + Int(b[1] % 8), maxBufferedBytesPerLink: 1 + Int(b[2]) * 8,
            maxBufferedBytesTotal: 1 + Int(b[3]) * 16, rememberedCompletionsPerLink: Int(b[4] >> 4))
    }

    mutating func feed(_ input: inout FuzzInput) {
        while !input.isAtEnd {
            let op = input.byte()
            now += .milliseconds(Int(input.byte()) * 100)
            let link = op & 3
            if (op >> 2) & 3 == 3 {
                if op & 0x10 != 0 { reassemblers.removeLink(link) } else { reassemblers.expire(now: now) }
            } else {
                receive(input.take(Int(input.byte())), on: link)
            }
            checkCaps()
        }
    }

    private mutating func receive(_ frame: [UInt8], on link: UInt8) {
        framesFed += 1
        let header: FrameHeader?
        do throws(FragmentError) {
            let parsed = try FrameHeader(parsing: frame)
            fuzzCheck(parsed.bytes == Array(frame.prefix(FrameHeader.length)), "header does not re-encode")
            header = parsed
        } catch {
            header = nil
            do throws(FragmentError) {
                _ = try reassemblers.receive(frame, on: link, now: now)
                fuzzCheck(false, "reassembler took a frame whose header fails: \(error)")
            } catch let thrown {
                fuzzCheck(thrown == error, "header error \(error), reassembler threw \(thrown)")
            }
            return
        }
        guard let header, case .complete(let kind, let id, let message)? = try? reassemblers.receive(frame, on: link, now: now)
        else { return }
        completed += 1
        fuzzCheck(kind == header.kind && id == header.transferID, "completed another transfer than the frame's")
        fuzzCheck(!message.isEmpty && message.count <= reassemblers.limits.maxMessageSize,
                  "message of \(message.count) bytes, cap \(reassemblers.limits.maxMessageSize)")
    }

    private func checkCaps() {
        let limits = reassemblers.limits
        var sum = 0
        for link in reassemblers.linkKeys {
            let bytes = reassemblers.bufferedBytes(on: link)
            sum += bytes
            fuzzCheck(bytes >= 0 && bytes <= limits.maxBufferedBytesPerLink, "link \(link) buffers \(bytes) bytes")
            fuzzCheck(reassemblers.transferCount(on: link) <= limits.maxTransfersPerLink,
                      "link \(link) holds \(reassemblers.transferCount(on: link)) transfers")
        }
        fuzzCheck(sum == reassemblers.bufferedBytes, "links buffer \(sum) bytes, total says \(reassemblers.bufferedBytes)")
        fuzzCheck(sum <= limits.maxBufferedBytesTotal, "all links buffer \(sum) bytes, cap \(limits.maxBufferedBytesTotal)")
        let counters = reassemblers.counters
        fuzzCheck(counters.accepted + counters.rejected + counters.duplicate + counters.lateDuplicate == framesFed,
                  "counters account for a different number of frames than \(framesFed) fed")
        fuzzCheck(counters.completed == completed, "\(counters.completed) completions counted, \(completed) returned")
    }
}

/// Splits a message and reassembles it from shuffled frames.
enum SplitRoundTrip {
    static func run(_ input: inout FuzzInput) {
        let mtu = FrameSplitter.minimumMTU + Int(input.byte() % 64)
        let kind = input.byte()
        let order = Int(input.byte())
        let id = input.take(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let message = input.rest()
        guard let frames = try? FrameSplitter.frames(of: message, kind: kind, transferID: id, mtu: mtu) else {
            fuzzCheck(message.isEmpty || message.count > FragmenterLimits.defaultMaxMessageSize, "a \(message.count)-byte message did not split at MTU \(mtu)")
            return
        }
        fuzzCheck(frames.allSatisfy { $0.count <= mtu }, "a frame is longer than MTU \(mtu)")
        var shuffled = frames
        shuffled.rotate(by: order % frames.count)
        if order & 0x80 != 0 { shuffled.reverse() }
        var reassembler = Reassembler()
        for (index, frame) in shuffled.enumerated() {
            let result = try? reassembler.receive(frame, now: .zero)
            if index + 1 < shuffled.count {
                fuzzCheck(result == .incomplete, "frame \(index) of \(shuffled.count) gave \(String(describing: result))")
            } else {
                fuzzCheck(result == .complete(kind: kind, transferID: id, message: message), "message did not reassemble")
            }
        }
        fuzzCheck((try? reassembler.receive(shuffled[0], now: .zero)) == .duplicate, "late duplicate not ignored")
        fuzzCheck(reassembler.bufferedBytes == 0 && reassembler.transferCount == 0, "bytes left after completion")
    }
}

extension Array {
    /// Moves the first `count` elements to the end.
    mutating func rotate(by count: Int) {
        guard count > 0, count < self.count else { return }
        self = Array(self[count...] + self[..<count])
    }
}

/// The worked example of docs/PROTOCOL.md B3 in both modes, plus a control record.
func frameSeeds() -> [(name: String, bytes: [UInt8])] {
    let frames = [
        "021a2b3c4d00000003000102030405060708090a0b0c0d",
        "021a2b3c4d000100030e0f101112131415161718191a1b",
        "021a2b3c4d000200031c1d",
    ].map(hexBytes)
    let limits: [UInt8] = [0x10, 0x03, 0x20, 0x40, 0x5a]
    var inOrder: [UInt8] = [0] + limits
    var reversed: [UInt8] = [0] + limits
    for (link, frame) in frames.enumerated() { inOrder += [UInt8(link & 1), 1, UInt8(frame.count)] + frame }
    for frame in frames.reversed() { reversed += [2, 3, UInt8(frame.count)] + frame }
    reversed += [0x0e, 200, 0, 0x1f, 0, 0]
    let split: [UInt8] = [1, 14, 0x02, 0x81, 0x1a, 0x2b, 0x3c, 0x4d] + (0..<30).map { UInt8($0) }
    return [("b3-in-order", inOrder), ("b3-reversed-expire-remove", reversed), ("b3-split", split)]
}
