import Flooding
import MeshNode
import MeshProtocol
import MeshSim

/// One mesh-scale run: build the graph, let every link key, send the messages, count.
struct MeshScaleRun {
    let options: MeshScaleOptions

    /// The graph the options ask for.
    func graph() -> MeshGraph {
        switch options.topology {
        case .rgg: MeshGraph.randomGeometric(nodes: options.nodes, meanDegree: options.degree, maxLinks: options.maxLinks, seed: options.seed)
        case .line: MeshGraph.line(nodes: options.nodes)
        case .ring: MeshGraph.ring(nodes: options.nodes)
        }
    }

    /// The engine configuration every node runs.
    func configuration() -> EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.relayScheduler = options.scheduler == .plain ? .plain : .managed(options.managed)
        configuration.admission.maxUnkeyedLinks = max(configuration.admission.maxUnkeyedLinks, options.maxLinks)
        return configuration
    }

    private struct Sent {
        let id: MessageID
        let origin: Int
        let destination: Int?
        let at: Duration
    }

    /// Runs the simulation and measures it.
    func run() throws -> MeshScaleResult {
        let clock = ContinuousClock()
        let started = clock.now
        let graph = graph()
        let sim = try MeshSimulator(nodeCount: graph.nodeCount, seed: options.seed, configuration: configuration())
        for edge in graph.edges { sim.connect(edge.a, edge.b, spec: SimLinkSpec(loss: options.loss)) }
        sim.run(for: options.settle)
        let atStart = framesByKind(sim)
        let relayedAtStart = sim.nodes.reduce(UInt64(0)) { $0 + $1.engine.kindCounters[.message].relayed }

        var random = SplitMix64(seed: options.seed ^ 0x6d65_7368_7369_6d00)
        var sent: [Sent] = []
        var failures = 0
        for round in 0..<options.messages {
            let origin = Int(random.next() % UInt64(graph.nodeCount))
            var destination: Int?
            if Double(random.next() >> 11) / Double(1 << 53) < options.directShare {
                let near = graph.within(2, of: origin)
                if !near.isEmpty { destination = near[Int(random.next() % UInt64(near.count))] }
            }
            do {
                let id = try sim.send(from: origin, text: "scale \(round)", to: destination)
                sent.append(Sent(id: id, origin: origin, destination: destination, at: sim.now))
            } catch {
                failures += 1
            }
            sim.run(for: options.spacing)
        }
        let drain = Duration.seconds(10)
        sim.run(for: drain)
        let window = options.spacing * options.messages + drain
        let atEnd = framesByKind(sim)
        return measure(sim: sim, graph: graph, sent: sent, failures: failures, window: window, atStart: atStart, atEnd: atEnd,
                       relayedAtStart: relayedAtStart, wall: clock.now - started)
    }

    private func framesByKind(_ sim: MeshSimulator) -> [UInt8: Int] {
        sim.nodes.reduce(into: [:]) { total, node in total.merge(node.framesSent) { $0 + $1 } }
    }

    private func measure(
        sim: MeshSimulator, graph: MeshGraph, sent: [Sent], failures: Int, window: Duration,
        atStart: [UInt8: Int], atEnd: [UInt8: Int], relayedAtStart: UInt64, wall: Duration
    ) -> MeshScaleResult {
        var deliveries: [MessageID: [(node: Int, at: Duration, hops: Int)]] = [:]
        for (index, node) in sim.nodes.enumerated() {
            for (message, at) in zip(node.delivered, node.deliveredAt) {
                deliveries[message.messageID, default: []].append((index, at, Int(message.hops) + 1))
            }
        }
        var expected = 0
        var delivered = 0
        var duplicates = 0
        var hops: [Int] = []
        var latencies: [Duration] = []
        for message in sent {
            let targets = message.destination.map { [$0] } ?? graph.within(3, of: message.origin)
            let wanted = Set(targets)
            expected += targets.count
            var got: Set<Int> = []
            for delivery in deliveries[message.id] ?? [] {
                guard got.insert(delivery.node).inserted else {
                    duplicates += 1
                    continue
                }
                guard wanted.contains(delivery.node) else { continue }
                delivered += 1
                hops.append(delivery.hops)
                latencies.append(delivery.at - message.at)
            }
        }
        let minutes = seconds(window) / 60
        let perNodeMinute = { (kind: MessageKind) in
            Double((atEnd[kind.rawValue] ?? 0) - (atStart[kind.rawValue] ?? 0)) / Double(graph.nodeCount) / minutes
        }
        let messageFrames = (atEnd[MessageKind.message.rawValue] ?? 0) - (atStart[MessageKind.message.rawValue] ?? 0)
        let relayed = sim.nodes.reduce(UInt64(0)) { $0 + $1.engine.kindCounters[.message].relayed } - relayedAtStart
        let counters = sim.nodes.reduce(into: RelaySchedulerCounters()) { sum, node in
            let counters = node.engine.relayCounters
            sum.scheduled += counters.scheduled
            sum.delayed += counters.delayed
            sum.cancelled += counters.cancelled
            sum.targetsPruned += counters.targetsPruned
            sum.overflow += counters.overflow
        }
        return MeshScaleResult(
            topology: options.topology, scheduler: options.scheduler, nodes: graph.nodeCount, links: graph.edges.count,
            meanDegree: graph.meanDegree, maxDegree: graph.maxDegree, seed: options.seed, loss: options.loss,
            broadcasts: sent.filter { $0.destination == nil }.count, directMessages: sent.filter { $0.destination != nil }.count,
            sendFailures: failures, expectedDeliveries: expected, deliveries: delivered,
            deliveryRatio: Double(delivered) / Double(max(expected, 1)), duplicateDeliveries: duplicates,
            messageFrames: messageFrames, envelopesRelayed: relayed,
            framesPerDelivery: Double(messageFrames) / Double(max(delivered, 1)),
            relaysPerDelivery: Double(relayed) / Double(max(delivered, 1)),
            p95Hops: percentile95(hops) ?? 0, p95LatencyMs: percentile95(latencies).map { seconds($0) * 1000 } ?? 0,
            heartbeatFramesPerNodePerMinute: perNodeMinute(.heartbeat), joinFramesPerNodePerMinute: perNodeMinute(.joinNotice),
            joinFramesPerNodeAtStart: Double(atStart[MessageKind.joinNotice.rawValue] ?? 0) / Double(graph.nodeCount),
            relaysScheduled: counters.scheduled, relaysDelayed: counters.delayed, relaysCancelled: counters.cancelled,
            targetsPruned: counters.targetsPruned, schedulerOverflow: counters.overflow,
            virtualSeconds: seconds(sim.now), wallSeconds: seconds(wall), crypto: "real")
    }
}

/// The nearest-rank 95th percentile, or nil for no values.
func percentile95<T: Comparable>(_ values: [T]) -> T? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let rank = (95 * sorted.count + 99) / 100
    return sorted[max(0, rank - 1)]
}

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
