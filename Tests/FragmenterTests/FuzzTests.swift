import MeshProtocol
import Testing
@testable import Fragmenter

/// Limits for the fuzz run: tight ones so every cap and eviction path is hit, and the defaults.
struct FuzzProfile: Sendable, CustomTestStringConvertible {
    let name: String
    let limits: FragmenterLimits
    let seed: UInt64
    let maxMessage: Int
    var testDescription: String { name }
}

private let profiles = [
    FuzzProfile(name: "tight caps", limits: FragmenterLimits(
        maxMessageSize: 2_048, reassemblyTimeout: .seconds(1), maxTransfersPerLink: 4,
        maxBufferedBytesPerLink: 3_000, maxBufferedBytesTotal: 6_000, rememberedCompletionsPerLink: 64),
        seed: 0xF0F0_0001, maxMessage: 2_048),
    FuzzProfile(name: "default caps", limits: FragmenterLimits(), seed: 0xF0F0_0002, maxMessage: 70_000),
]

/// Produces valid, mutated, garbage and replayed frames for several links.
private struct FrameSource {
    var random: SplitMix64
    let maxMessage: Int
    /// Messages being delivered, each as its not-yet-sent frames, several at once across links.
    var streams: [[(link: Int, frame: [UInt8])]] = []
    var recent: [(link: Int, frame: [UInt8])] = []

    mutating func next() -> (link: Int, frame: [UInt8]) {
        let roll = random.int(0...99)
        if roll < 60 || recent.isEmpty {
            let valid = nextValid()
            if recent.count < 64 { recent.append(valid) } else { recent[random.int(0...63)] = valid }
            return valid
        }
        let old = recent[random.int(0...recent.count - 1)]
        if roll < 80 { return (old.link, mutate(old.frame)) }
        if roll < 92 { return (random.int(0...3), garbage()) }
        return old
    }

    private mutating func nextValid() -> (link: Int, frame: [UInt8]) {
        while streams.count < 6 { streams.append(newStream()) }
        let pick = random.int(0...streams.count - 1)
        let index = random.int(0...streams[pick].count - 1)
        streams[pick].swapAt(index, streams[pick].count - 1)
        let frame = streams[pick].removeLast()
        if streams[pick].isEmpty { streams.remove(at: pick) }
        return frame
    }

    private mutating func newStream() -> [(link: Int, frame: [UInt8])] {
        let link = random.int(0...3)
        let roll = random.int(0...99)
        let largest = roll < 70 ? 600 : roll < 95 ? 4_096 : maxMessage
        let size = random.int(1...min(largest, maxMessage))
        let frames = (try? FrameSplitter.frames(
            of: random.bytes(size), kind: UInt8(random.int(1...5)), transferID: UInt32(random.int(0...63)),
            mtu: random.int(10...517), maxMessageSize: 1 << 20)) ?? [garbage()]
        return frames.map { (link, $0) }
    }

    private mutating func mutate(_ frame: [UInt8]) -> [UInt8] {
        var frame = frame
        for _ in 0..<random.int(1...3) {
            switch random.int(0...5) {
            case 0 where !frame.isEmpty: frame[random.int(0...frame.count - 1)] ^= UInt8(random.int(1...255))
            case 1: frame = Array(frame.prefix(random.int(0...frame.count)))
            case 2: frame += random.bytes(random.int(1...600))
            case 3 where frame.count >= 9: frame[7] = UInt8(random.int(0...2)); frame[8] = UInt8(random.int(0...255))
            case 4 where frame.count >= 9: frame[5] = UInt8(random.int(0...255)); frame[6] = UInt8(random.int(0...255))
            case 5 where !frame.isEmpty: frame[0] = UInt8(random.int(0...6))
            default: break
            }
        }
        return frame
    }

    private mutating func garbage() -> [UInt8] {
        var frame = random.bytes(random.int(0...600))
        if frame.count >= 9 && random.int(0...1) == 0 {
            frame[1] = 0; frame[2] = 0; frame[3] = 0; frame[4] = UInt8(random.int(0...15))
            frame[7] = 0; frame[8] = UInt8(random.int(0...40))
        }
        return frame
    }
}

@Suite("Fuzzing")
struct FuzzTests {
    @Test("100,000 random and mutated frames: no crash, caps hold after every frame", arguments: profiles)
    func randomFrames(profile: FuzzProfile) {
        let limits = profile.limits
        var links = LinkReassemblers<Int>(limits: limits)
        var source = FrameSource(random: SplitMix64(seed: profile.seed), maxMessage: profile.maxMessage)
        var timeRandom = SplitMix64(seed: profile.seed ^ 0xFF)
        var now = Duration.zero
        var returned = (incomplete: 0, duplicate: 0, complete: 0, thrown: 0)
        var violation: String?
        for step in 0..<100_000 {
            now += .microseconds(Int64(timeRandom.int(0...5_000)))
            let (link, frame) = source.next()
            do {
                switch try links.receive(frame, on: link, now: now) {
                case .incomplete: returned.incomplete += 1
                case .duplicate: returned.duplicate += 1
                case .complete(_, _, let message):
                    returned.complete += 1
                    if message.isEmpty || message.count > limits.maxMessageSize { violation = "bad message at \(step)" }
                }
            } catch {
                returned.thrown += 1
            }
            let perLink = links.linkKeys.map { links.bufferedBytes(on: $0) }
            if links.bufferedBytes > limits.maxBufferedBytesTotal || perLink.reduce(0, +) != links.bufferedBytes
                || perLink.contains(where: { $0 > limits.maxBufferedBytesPerLink })
                || links.linkKeys.contains(where: { links.transferCount(on: $0) > limits.maxTransfersPerLink }) {
                violation = "cap exceeded at frame \(step): \(links.bufferedBytes) \(perLink)"
            }
            if violation != nil { break }
        }
        #expect(violation == nil)
        let counters = links.counters
        #expect(counters.accepted == returned.incomplete + returned.complete)
        #expect(counters.completed == returned.complete)
        #expect(counters.duplicate + counters.lateDuplicate == returned.duplicate)
        #expect(counters.rejected == returned.thrown)
        #expect(counters.accepted + counters.duplicate + counters.lateDuplicate + counters.rejected == 100_000)
        // The run reached every rejection and eviction path that frames alone can reach.
        for (name, value) in [
            ("frameTooShort", counters.frameTooShort), ("zeroTotal", counters.zeroTotal),
            ("sequenceOutOfRange", counters.sequenceOutOfRange), ("emptySlice", counters.emptySlice),
            ("messageTooLarge", counters.messageTooLarge), ("kindMismatch", counters.kindMismatch),
            ("totalMismatch", counters.totalMismatch), ("duplicate", counters.duplicate),
            ("lateDuplicate", counters.lateDuplicate), ("completed", counters.completed),
            ("timedOut", counters.timedOut),
        ] {
            #expect(value > 0, "\(name) never happened")
        }
        if profile.name == "tight caps" {
            #expect(counters.evictedTransferCap > 0)
            #expect(counters.evictedLinkByteCap > 0)
            #expect(counters.evictedTotalByteCap > 0)
        }
        // Afterwards everything drains: one timeout later nothing is buffered, and removing the
        // (now empty) links keeps every count.
        links.expire(now: now + limits.reassemblyTimeout)
        #expect(links.bufferedBytes == 0)
        let drained = links.counters
        #expect(drained.timedOut >= counters.timedOut)
        for link in links.linkKeys { links.removeLink(link) }
        #expect(links.counters == drained && links.linkKeys.isEmpty)
        print("fuzz \(profile.name): \(drained)")
    }
}
