import CAllocationCounter
import MeshNode
import MeshSim
import Testing

/// Heap allocations per relayed message, checked against thresholds (swift-nio's allocation-count
/// tests are the model). One engine keyed to a source and its targets (`RelayHarness`) receives
/// new signed broadcasts, opens, checks, verifies, delivers and relays each; every malloc-family
/// call of this thread while it does is counted (`CAllocationCounter`, interposed in the test
/// runner), OpenSSL's included. The count does not depend on the machine's speed or load.
///
/// A threshold is the figure measured when it was set, plus about 5 %. Over it, the change that
/// crossed it allocates more per message: find why, or raise the threshold in the same commit,
/// saying why. Far under it, lower it. The limits differ by build configuration (a debug build
/// specializes and inlines less); release figures: `meshbench --only relay` in Benchmarks/.
@Suite("Allocations per relayed message stay under their thresholds")
struct RelayAllocationTests {
    /// One relay shape and its most allocations per message.
    struct Threshold: Sendable, CustomTestStringConvertible {
        /// The ATT MTU of every link (frames of `attMTU` − 3 bytes).
        let attMTU: Int
        /// Neighbours each message is relayed to.
        let targets: Int
        /// The most allocations per relayed message in this build configuration.
        let limit: Double

        var testDescription: String { "ATT MTU \(attMTU), relayed to \(targets): at most \(limit) allocations a message" }
    }

    #if DEBUG
    // Measured by this test (debug, what CI runs): 250.9, 305.9 and 1,043.2 per message.
    static let thresholds = [
        Threshold(attMTU: 510, targets: 4, limit: 264),
        Threshold(attMTU: 247, targets: 4, limit: 322),
        Threshold(attMTU: 23, targets: 1, limit: 1096),
    ]
    #else
    // meshbench's release figures for the same path (docs/measurements/bench-meshbench.json,
    // verification included): 91.4, 109.4 and 312.3 per message.
    static let thresholds = [
        Threshold(attMTU: 510, targets: 4, limit: 96),
        Threshold(attMTU: 247, targets: 4, limit: 115),
        Threshold(attMTU: 23, targets: 1, limit: 328),
    ]
    #endif

    /// Messages before counting starts: the origin's keys enter their cache, tables reach size.
    static let warmUp = 20
    /// Messages counted.
    static let counted = 200

    @Test("A new signed broadcast received, verified, delivered and relayed", arguments: thresholds)
    func relayedBroadcast(threshold: Threshold) throws {
        try #require(allocation_counter_active() == 1, "CAllocationCounter's malloc is not the process's")
        // Production defaults (padding on, managed flooding off in the engine), but the link keys
        // never roll: a rekey needs the targets to answer, and they are silent here.
        var configuration = EngineConfiguration(rekeyAfterMessages: .max, rekeyInterval: .seconds(1_000_000_000))
        configuration.padding = true
        let harness = try RelayHarness(attMTU: threshold.attMTU, targetCount: threshold.targets, configuration: configuration)
        // 60 ms apart, so the default budgets (20 a second from one neighbour) admit every one.
        let start = harness.now
        let spacing = Duration.milliseconds(60)
        var broadcasts: [[[UInt8]]] = []
        for index in 0..<(Self.warmUp + Self.counted) {
            harness.now = start + spacing * index
            broadcasts.append(try harness.sourceBroadcast(text: "relay bench"))
        }
        var framesOut = 0
        var before: UInt64 = 0
        for (index, frames) in broadcasts.enumerated() {
            if index == Self.warmUp { before = allocation_counter_this_thread() }
            harness.now = start + spacing * index
            for frame in frames { framesOut += harness.feed(frame) }
        }
        let perMessage = Double(allocation_counter_this_thread() - before) / Double(Self.counted)

        let counters = harness.engine.kindCounters[.message]
        #expect(counters.delivered == UInt64(broadcasts.count))
        #expect(counters.relayed == UInt64(broadcasts.count * threshold.targets))
        #expect(framesOut >= broadcasts.count * threshold.targets)
        #expect(perMessage <= threshold.limit, "\(perMessage) allocations per relayed message, over \(threshold.limit)")
    }
}
