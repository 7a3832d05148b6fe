import MeshCrypto
import MeshProtocol
import MeshSim
import Testing

@testable import MeshNode

/// Cover packets on opaque links (PROTOCOL.md D14, `[privacy] cover_interval`): when they go, how
/// long they are, who sends them, what they cost on the air.
@Suite("Cover packets on opaque links")
struct CoverTrafficTests {
    /// A generator that returns one value for ever.
    struct Constant: RandomNumberGenerator {
        let value: UInt64
        mutating func next() -> UInt64 { value }
    }

    @Test("Gaps are exponential around the mean and never longer than ten means", arguments: [UInt64(1), 2, 3])
    func gapsDrawnAndBounded(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let mean = Duration.seconds(10)
        let gaps = (0..<20_000).map { _ in CoverSchedule.gap(mean: mean, random: &random) }
        #expect(gaps.allSatisfy { $0 >= .zero && $0 <= mean * 10 })
        let seconds = gaps.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        let average = seconds.reduce(0, +) / Double(seconds.count)
        #expect(abs(average - 10) < 0.3, "mean gap \(average) s")
        // Exponential, not uniform or constant: about e^-1 of the gaps exceed the mean.
        let longer = Double(seconds.filter { $0 > 10 }.count) / Double(seconds.count)
        #expect(abs(longer - 0.368) < 0.02, "share above the mean \(longer)")
    }

    @Test("The extreme draws give no gap and ten means")
    func gapExtremes() {
        var highest = Constant(value: .max)
        var lowest = Constant(value: 0)
        #expect(CoverSchedule.gap(mean: .seconds(5), random: &highest) == .zero)
        #expect(CoverSchedule.gap(mean: .seconds(5), random: &lowest) == .seconds(50))
    }

    @Test("A cover body copies one of the last eight real bodies, and an acknowledgement's before any")
    func sizesFollowRealTraffic() {
        var sizes = CoverSizes()
        var random = SplitMix64(seed: 9)
        #expect(sizes.draw(random: &random) == 19)
        for length in 1...10 { sizes.note(length * 100) }
        let drawn = Set((0..<400).map { _ in sizes.draw(random: &random) })
        #expect(drawn == Set((3...10).map { $0 * 100 }))
    }

    static func covering(_ interval: Duration, opaque: Bool = true) -> EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.coverInterval = interval
        configuration.opaquePackets = opaque
        return configuration
    }

    /// Two nodes on one link at MTU 185 for an hour of virtual time with `configurations`; the
    /// bytes and frames each put on the air after the first 5 s, and the engines.
    static func hour(
        _ configurations: [Int: EngineConfiguration], messages: Int = 0
    ) throws -> (sim: MeshSimulator, bytes: Int, frames: Int, sent: [MessageID]) {
        let sim = try MeshSimulator(nodeCount: 2, seed: 71, nodeConfigurations: configurations)
        _ = sim.connect(0, 1)
        sim.run(for: .seconds(5))
        var bytes = 0
        var frames = 0
        sim.listener = { _, frame in
            bytes += frame.count
            frames += 1
        }
        var sent: [MessageID] = []
        for index in 0..<messages { sent.append(try sim.send(from: index % 2, text: "message \(index)")) }
        sim.run(for: .seconds(3600))
        return (sim, bytes, frames, sent)
    }

    @Test("At 10 s, each end sends about 360 cover packets an hour; the peer opens and drops each; real traffic arrives")
    func hourAtTenSeconds() throws {
        let covered = try Self.hour([0: Self.covering(.seconds(10)), 1: Self.covering(.seconds(10))], messages: 40)
        let plain = try Self.hour([:], messages: 40)
        for index in 0..<2 {
            let counters = covered.sim.nodes[index].engine.linkCounters
            // A Poisson count of mean 360 (standard deviation 19).
            #expect((280...440).contains(counters.coverSent), "cover sent \(counters.coverSent)")
            // Every cover packet the peer sent was opened and dropped here, but the last may still
            // be in flight (15 ms) when the hour ends.
            let peerSent = covered.sim.nodes[1 - index].engine.linkCounters.coverSent
            #expect(counters.coverReceived <= peerSent && peerSent - counters.coverReceived <= 1, "\(counters.coverReceived) of \(peerSent)")
            #expect(counters.unknownKinds == 0 && counters.sealFailures == 0 && counters.replays == 0)
            #expect(plain.sim.nodes[index].engine.linkCounters.coverSent == 0)
        }
        for id in covered.sent { #expect(covered.sim.deliveries(of: id).values.reduce(0, +) == 1) }
        // What cover adds on the link: its packets and the acknowledgements they draw (D12).
        let coverCount = covered.sim.nodes.map(\.engine.linkCounters.coverSent).reduce(0, +)
        let extraBytes = covered.bytes - plain.bytes
        let extraFrames = covered.frames - plain.frames
        // Each cover packet is one frame of at most 165 bytes (a 156-byte packet, 9 of header) at
        // MTU 185 on a quiet link, and draws at most one 69-byte acknowledgement frame.
        #expect(extraFrames >= Int(coverCount) && extraFrames <= 2 * Int(coverCount), "\(extraFrames) frames")
        #expect(extraBytes >= 69 * Int(coverCount) && extraBytes <= (165 + 69) * Int(coverCount), "\(extraBytes) bytes")
    }

    @Test("No cover toward an older node, nor from it; none at all when the interval is 0")
    func onlyOnOpaqueLinks() throws {
        let older = try Self.hour([0: Self.covering(.seconds(2)), 1: Self.covering(.seconds(2), opaque: false)])
        for node in older.sim.nodes {
            #expect(node.engine.linkCounters.coverSent == 0)
            #expect(node.engine.linkCounters.coverReceived == 0)
            #expect(node.engine.linkCounters.opaqueLinks == 0)
        }
        // The older node dropped only the two announcements as of a kind it does not know.
        #expect(older.sim.nodes[1].engine.linkCounters.unknownKinds <= 2)
        let off = try Self.hour([0: Self.covering(.zero), 1: Self.covering(.seconds(2))])
        #expect(off.sim.nodes[0].engine.linkCounters.coverSent == 0)
        #expect(off.sim.nodes[1].engine.linkCounters.coverSent > 0)
        #expect(off.sim.nodes[0].engine.linkCounters.coverReceived == off.sim.nodes[1].engine.linkCounters.coverSent)
    }

    @Test("A link whose packets wait for credit (D12) sends no cover and spends none; its peer's link still covers")
    func busyLinkSkipsCover() throws {
        let configuration = Self.covering(.seconds(1))
        var stingy = configuration
        stingy.linkDelivery.credit = 0
        let pair = try EnginePair(configuration: configuration, configurationOfB: stingy)
        for _ in 0..<8 { pair.advance(.milliseconds(250)) }
        #expect(pair.bothReady)
        #expect(pair.a.linkCounters.opaqueLinks == 1 && pair.b.linkCounters.opaqueLinks == 1)
        try pair.send("waits for credit")
        #expect(pair.a.linkCounters.creditWaits >= 1)
        let before = pair.a.linkCounters.coverSent
        for _ in 0..<240 { pair.advance(.milliseconds(250)) }
        #expect(pair.a.linkCounters.coverSent == before)
        #expect(pair.a.linkCounters.creditRefusals == 0)
        #expect(pair.b.linkCounters.coverSent > 30)
        #expect(pair.a.linkCounters.coverReceived == pair.b.linkCounters.coverSent)
    }
}
