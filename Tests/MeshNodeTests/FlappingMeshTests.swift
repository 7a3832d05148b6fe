import Flooding
import Foundation
import MeshNode
import MeshProtocol
import MeshSim
import Testing

/// What one run of the flapping mesh measured.
private struct FlapRun: CustomStringConvertible {
    /// Deliveries at nodes within the hop limit of the origin (in the mesh with every link up).
    var delivered = 0
    /// Nodes within the hop limit of the origin, summed over the broadcasts.
    var expected = 0
    /// Times a node delivered a message it had already delivered.
    var duplicates = 0
    /// Link drops the flap schedule caused.
    var flaps = 0
    /// The most bytes any one node held at once (sampled after every broadcast).
    var peakHeldBytes = 0
    /// Bytes still held anywhere at the end.
    var heldAtEnd = 0
    /// Hold counters summed over the nodes.
    var hold = HoldCounters()
    /// Chat-message copies relayed again because they came by a shorter path.
    var shorterPath: UInt64 = 0
    /// Chat-message frames sent by every node (originals, relays, late and repeated copies).
    var messageFrames = 0

    var ratio: Double { Double(delivered) / Double(max(expected, 1)) }
    var description: String {
        "delivered \(delivered) of \(expected) (\(String(format: "%.4f", ratio))), \(flaps) link drops, "
            + "held \(hold.held), sent late \(hold.sentLate), resent \(hold.resent), expired \(hold.expired), "
            + "evicted \(hold.evicted), shorter-path relays \(shorterPath), message frames \(messageFrames), "
            + "peak held \(peakHeldBytes) B at one node"
    }
}

/// Thirty people on a 60 m floor, 20 m radio range, at most 6 links each: 1,000 broadcasts from
/// random nodes, one every 0.3 s, while (with `flapping`) every link goes down now and then —
/// up for an exponentially distributed time (mean 30 s), then down for 1–5 s.
private func runFlappingMesh(
    flapping: Bool, hold: HoldLimits, shorterPaths: Bool = true, scheduler: RelaySchedulerChoice = .plain
) throws -> FlapRun {
    let floor = Floor(people: 30, side: 60, range: 20, maxDegree: 6, seed: 2024)
    var configuration = EngineConfiguration(hold: hold, shorterPathCapacity: shorterPaths ? 4096 : 0)
    configuration.relayScheduler = scheduler
    let sim = try MeshSimulator(nodeCount: floor.count, seed: 2024, configuration: configuration)
    sim.reconnectDelay = .seconds(2)
    let connections = floor.edges.map { sim.connect($0.0, $0.1) }
    let settle = Duration.seconds(15)
    let broadcasts = 1000
    let spacing = Duration.milliseconds(300)
    let end = settle + spacing * broadcasts + .seconds(5)
    var run = FlapRun()
    var random = SplitMix64(seed: 77)
    var flapRandom = SplitMix64(seed: 78)
    func uniform() -> Double { Double(flapRandom.next() >> 11) / Double(1 << 53) }
    if flapping {
        for connection in connections {
            var time = settle + .milliseconds(Int64(-30_000 * log(1 - uniform())))
            while time < end {
                let down = Duration.milliseconds(Int64(1000 + 4000 * uniform()))
                sim.at(time) { $0.disconnect(connection) }
                sim.at(time + down) { $0.reconnect(connection) }
                run.flaps += 1
                time += down + .milliseconds(Int64(-30_000 * log(1 - uniform())))
            }
        }
    }
    sim.run(for: settle)
    var sent: [(id: MessageID, origin: Int)] = []
    for round in 0..<broadcasts {
        let origin = Int(random.next() % UInt64(floor.count))
        if let id = try? sim.send(from: origin, text: "flap \(round)") { sent.append((id, origin)) }
        run.expected += reachable(from: origin, hops: 3, edges: floor.edges).count
        sim.run(for: spacing)
        run.peakHeldBytes = max(run.peakHeldBytes, sim.nodes.map(\.engine.heldBytes).max() ?? 0)
    }
    sim.run(for: .seconds(40))
    var deliveries: [MessageID: [Int: Int]] = [:]
    for (index, node) in sim.nodes.enumerated() {
        for message in node.delivered { deliveries[message.messageID, default: [:]][index, default: 0] += 1 }
    }
    for (id, origin) in sent {
        let targets = reachable(from: origin, hops: 3, edges: floor.edges)
        let got = deliveries[id] ?? [:]
        run.delivered += got.keys.filter { targets.contains($0) }.count
        run.duplicates += got.values.reduce(0) { $0 + $1 - 1 }
    }
    for node in sim.nodes {
        let counters = node.engine.holdCounters
        run.hold.held += counters.held
        run.hold.sentLate += counters.sentLate
        run.hold.resent += counters.resent
        run.hold.expired += counters.expired
        run.hold.evicted += counters.evicted
        run.heldAtEnd += node.engine.heldBytes
        run.shorterPath += node.engine.kindCounters[.message].shorterPath
        run.messageFrames += node.framesSent[MessageKind.message.rawValue] ?? 0
    }
    return run
}

@Suite("Flapping mesh")
struct FlappingMeshTests {
    /// The same mesh and the same broadcasts four times: every link up; links flapping as the
    /// node did before (nothing held, a shorter copy dropped as seen); holding alone; holding
    /// and relaying shorter copies again (the defaults).
    @Test("Links flapping on a 30-node mesh: delivery within the hop limit stays at 99 % of the mesh without flaps")
    func deliveryThroughFlaps() throws {
        let steady = try runFlappingMesh(flapping: false, hold: HoldLimits())
        let before = try runFlappingMesh(flapping: true, hold: .disabled, shorterPaths: false)
        let holdOnly = try runFlappingMesh(flapping: true, hold: HoldLimits(), shorterPaths: false)
        let after = try runFlappingMesh(flapping: true, hold: HoldLimits())
        func share(_ run: FlapRun) -> String { String(format: "%.4f", run.ratio / steady.ratio) }
        print("flapping mesh, no flaps:                    \(steady)")
        print("flapping mesh, flaps, as before:            \(before) -> \(share(before)) of no flaps")
        print("flapping mesh, flaps, holding only:         \(holdOnly) -> \(share(holdOnly)) of no flaps")
        print("flapping mesh, flaps, holding + shorter:    \(after) -> \(share(after)) of no flaps")
        #expect(after.flaps > 500, "the schedule must really flap links")
        #expect(after.ratio >= 0.99 * steady.ratio)
        #expect(after.ratio > holdOnly.ratio && holdOnly.ratio > before.ratio, "each part must make a difference the test can see")
        let runs = [steady, before, holdOnly, after]
        #expect(runs.allSatisfy { $0.duplicates == 0 }, "a user got a message twice")
        #expect(after.peakHeldBytes <= HoldLimits().totalBytes)
        #expect(after.heldAtEnd == 0, "everything held was sent or expired")
    }

    /// Managed flooding skips neighbours it believes a copy already reached, from links it saw in
    /// routes up to two minutes before: under link churn some of those links are gone. The same
    /// flapping mesh with the daemon's default scheduler must deliver as well as plain flooding.
    @Test("Links flapping: managed flooding delivers within the hop limit as well as plain flooding, with fewer frames")
    func managedFloodingThroughFlaps() throws {
        let plain = try runFlappingMesh(flapping: true, hold: HoldLimits())
        let managed = try runFlappingMesh(
            flapping: true, hold: HoldLimits(), scheduler: .managed(ManagedFloodingParameters()))
        print("flapping mesh, flaps, plain flooding:       \(plain)")
        print("flapping mesh, flaps, managed flooding:     \(managed)")
        #expect(managed.flaps > 500, "the schedule must really flap links")
        #expect(managed.ratio >= plain.ratio - 0.001, "managed flooding lost deliveries plain flooding made")
        #expect(managed.messageFrames < plain.messageFrames, "managed flooding must save frames here too")
        #expect(managed.duplicates == 0, "a user got a message twice")
    }
}
