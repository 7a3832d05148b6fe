import Flooding
import MeshCrypto
@_spi(Benchmark) import MeshNode
import MeshProtocol
import MeshSim

/// The relay path at one ATT MTU and one neighbour count.
struct RelayFigure: Codable {
    var attMTU: Int
    /// The frame size (ATT MTU − 3).
    var frameSize: Int
    /// Neighbours each broadcast is relayed to (the source is one more).
    var relayNeighbours: Int
    var messages: Int
    /// The link packet of one broadcast (sealed envelope), in bytes.
    var linkPacketBytes: Int
    var framesInPerMessage: Double
    var framesOutPerMessage: Double
    /// Messages per CPU second of one core, verification excluded (the benchmark seam).
    var messagesPerSecondExcludingVerification: Double
    var allocationsPerMessageExcludingVerification: Double
    /// The same path with the engine's full verification, as in production.
    var messagesPerSecondIncludingVerification: Double
    var allocationsPerMessageIncludingVerification: Double
    var messagesIncludingVerification: Int
}

/// The engine's origin verification of one broadcast, measured alone.
struct VerificationFigure: Codable {
    var envelopes: Int
    /// Distinct origins, cycled: 1 (keys cached) or more than the key cache holds (never cached).
    var origins: Int
    var perSecond: Double
    var microsecondsEach: Double
    var allocationsPerEnvelope: Double
}

struct RelayReport: Codable {
    var textBytes: Int
    var padding: String
    var messageSpacingMilliseconds: Int
    var figures: [RelayFigure]
    /// From one origin whose keys the engine has kept.
    var verificationKnownOrigin: VerificationFigure
    /// Each from an origin the engine has not kept (keys decoded and checked every time).
    var verificationNewOrigin: VerificationFigure
    /// The goal figure: one-frame messages at MTU 247, 4 neighbours, verification excluded.
    var goal: String
}

enum RelayBench {
    static let attMTUs = [23, 185, 247, 510]
    static let neighbourCounts = [1, 4, 8]
    /// Short enough that a broadcast is one frame at ATT MTU 247 (see docs/PERFORMANCE.md).
    static let text = "relay bench"
    /// Messages from one neighbour are spaced so the default budgets (20 per second) admit all.
    static let spacing: Duration = .milliseconds(60)

    static func configuration() -> EngineConfiguration {
        // Production defaults, but the link keys never roll during a run (a rekey needs the
        // targets to answer, and they are silent here).
        var configuration = EngineConfiguration(rekeyAfterMessages: .max, rekeyInterval: .seconds(1_000_000_000))
        configuration.padding = true
        return configuration
    }

    /// For `perf record` or callgrind: one MTU at k = 4, verification excluded, many messages.
    static func profile(_ output: Output, mtu: Int, messages: Int) throws {
        let run = try measure(mtu: mtu, k: 4, messages: messages, skipVerification: true)
        output.row(
            "ATT MTU \(mtu), k 4, verification excluded",
            "\(formatRate(run.sample.perCPUSecond)) (\(rounded(run.sample.allocationsPerOperation, 1)) allocs/msg)")
    }

    static func run(_ output: Output, scale: Int) throws -> RelayReport {
        output.heading("The relay path: frames → reassembly → link open → checks → verification → re-seal for k → split (CPU time)")
        output.line("  ATT MTU  k  frames in/out  msgs/s excl. verif.  allocs/msg  msgs/s incl. verif.  allocs/msg")
        let excludedCount = 20_000 / scale
        let includedCount = 2_000 / scale
        var figures: [RelayFigure] = []
        for mtu in attMTUs {
            for k in neighbourCounts {
                let excluded = try measure(mtu: mtu, k: k, messages: excludedCount, skipVerification: true)
                let included = try measure(mtu: mtu, k: k, messages: includedCount, skipVerification: false)
                let figure = RelayFigure(
                    attMTU: mtu, frameSize: excluded.frameSize, relayNeighbours: k, messages: excludedCount,
                    linkPacketBytes: excluded.linkPacketBytes,
                    framesInPerMessage: excluded.framesIn, framesOutPerMessage: excluded.framesOut,
                    messagesPerSecondExcludingVerification: excluded.sample.perCPUSecond,
                    allocationsPerMessageExcludingVerification: excluded.sample.allocationsPerOperation,
                    messagesPerSecondIncludingVerification: included.sample.perCPUSecond,
                    allocationsPerMessageIncludingVerification: included.sample.allocationsPerOperation,
                    messagesIncludingVerification: includedCount)
                figures.append(figure)
                output.line(
                    "  " + "\(mtu)".padding(toLength: 7, withPad: " ", startingAt: 0) + "\(k)".padding(toLength: 3, withPad: " ", startingAt: 0)
                        + "\(rounded(excluded.framesIn, 1))/\(rounded(excluded.framesOut, 1))".padding(toLength: 15, withPad: " ", startingAt: 0)
                        + formatRate(excluded.sample.perCPUSecond).padding(toLength: 21, withPad: " ", startingAt: 0)
                        + "\(rounded(excluded.sample.allocationsPerOperation, 1))".padding(toLength: 12, withPad: " ", startingAt: 0)
                        + formatRate(included.sample.perCPUSecond).padding(toLength: 21, withPad: " ", startingAt: 0)
                        + "\(rounded(included.sample.allocationsPerOperation, 1))")
            }
        }
        let known = try measureVerification(count: 10_000 / scale, origins: 1)
        let new = try measureVerification(count: 2_000 / scale, origins: 200)
        for (name, figure) in [("engine verification, known origin", known), ("engine verification, new origin", new)] {
            output.row(name, "\(formatRate(figure.perSecond)) (\(rounded(figure.microsecondsEach, 1)) µs, \(rounded(figure.allocationsPerEnvelope, 1)) allocs)")
        }
        let goal = figures.first { $0.attMTU == 247 && $0.relayNeighbours == 4 }
        let goalText = goal.map {
            "ATT MTU 247, 4 neighbours, verification excluded: \(Int($0.messagesPerSecondExcludingVerification)) messages/s per core "
                + "(\($0.framesInPerMessage) frame(s) in per message; goal ≥ 100,000 one-frame messages/s)"
        } ?? "not measured"
        output.line("  goal: " + goalText)
        return RelayReport(
            textBytes: text.utf8.count, padding: "buckets (the default)", messageSpacingMilliseconds: 60,
            figures: figures, verificationKnownOrigin: known, verificationNewOrigin: new, goal: goalText)
    }

    private struct Run {
        var sample: Sample
        var framesIn: Double
        var framesOut: Double
        var linkPacketBytes: Int
        var frameSize: Int
    }

    private static func measure(mtu: Int, k: Int, messages: Int, skipVerification: Bool) throws -> Run {
        let harness = try RelayHarness(attMTU: mtu, targetCount: k, configuration: configuration())
        if skipVerification { harness.engine.skipBroadcastSignatureChecksForBenchmark() }
        // Prepare every broadcast first: the source signs and seals it (not timed).
        let start = harness.now
        var inputs: [[[UInt8]]] = []
        inputs.reserveCapacity(messages)
        for index in 0..<messages {
            harness.now = start + spacing * index
            inputs.append(try harness.sourceBroadcast(text: text))
        }
        let before = harness.engine.kindCounters[.message]
        var framesOut = 0
        let sample = Timing.measure(count: messages) { index in
            harness.now = start + spacing * index
            for frame in inputs[index] { framesOut += harness.feed(frame) }
        }
        let after = harness.engine.kindCounters[.message]
        guard after.delivered - before.delivered == UInt64(messages), after.relayed - before.relayed == UInt64(messages * k) else {
            throw BenchFailure.wrongResult(
                "MTU \(mtu), k \(k): \(after.delivered - before.delivered) delivered and \(after.relayed - before.relayed) relayed copies of \(messages)")
        }
        let framesIn = inputs.reduce(0) { $0 + $1.count }
        return Run(
            sample: sample, framesIn: Double(framesIn) / Double(messages), framesOut: Double(framesOut) / Double(messages),
            linkPacketBytes: inputs.first.map { $0.reduce(0) { $0 + $1.count - 9 } } ?? 0, frameSize: harness.frameSize)
    }

    /// The engine's own verification of broadcasts (decode the body, the origin keys checked
    /// against the node ID, one ECDSA verification), alone: from one origin (its keys decoded
    /// once, then cached) or each from an origin it has not kept (keys decoded every time).
    private static func measureVerification(count: Int, origins originCount: Int) throws -> VerificationFigure {
        let engine = MeshEngine(identity: try NodeIdentity.generate(), configuration: configuration())
        let origins = try (0..<originCount).map { _ in try NodeIdentity.generate() }
        var random = SplitMix64(seed: 9)
        var envelopes: [Envelope] = []
        for index in 0..<count {
            let origin = origins[index % originCount]
            let body = ChatBody(
                signingKey: origin.signingPublicKey.compressed, agreementKey: origin.agreementPublicKey.compressed, text: text)
            var envelope = Envelope(
                kind: .message, messageID: MessageID(random: &random), origin: origin.nodeID, route: [origin.nodeID],
                timestamp: 1_000, payload: body.encoded())
            try EnvelopeSigner.sign(&envelope, with: origin)
            envelopes.append(envelope)
        }
        // The first envelope of each origin enters the key cache untimed when they are all from one.
        if originCount == 1 { _ = engine.verifyForBenchmark(envelopes[0]) }
        var failures = 0
        let sample = Timing.measure(count: count) { index in
            if !engine.verifyForBenchmark(envelopes[index]) { failures += 1 }
        }
        guard failures == 0 else { throw BenchFailure.wrongResult("\(failures) envelopes failed verification") }
        return VerificationFigure(
            envelopes: count, origins: originCount, perSecond: sample.perCPUSecond,
            microsecondsEach: sample.cpuSeconds / Double(count) * 1e6, allocationsPerEnvelope: sample.allocationsPerOperation)
    }
}
