import MeshSim

/// The whole engine in the simulator: a 10-node full mesh.
struct SimulatorReport: Codable {
    var broadcasts: Int
    var deliveries: Int
    var frames: Int
    var wallSeconds: Double
    var cpuSeconds: Double
    /// Frames handled per wall second (the simulator is single-threaded).
    var framesPerWallSecond: Double
    /// Idle: node-ticks (250 ms each) of the same mesh with no message sent, heartbeats only.
    var idleNodeTicks: Int
    /// CPU microseconds per idle node-tick (the tick, heartbeats and what they cause).
    var idleMicrosecondsPerNodeTick: Double
}

enum SimulatorBench {
    static func run(_ output: Output, scale: Int) throws -> SimulatorReport {
        output.heading("Whole engine in the simulator")
        let nodeCount = 10
        let sim = try MeshSimulator(nodeCount: nodeCount, seed: 5)
        for a in 0..<nodeCount { for b in (a + 1)..<nodeCount { sim.connect(a, b) } }
        sim.run(for: .seconds(10))
        let framesBefore = sim.framesDelivered
        let rounds = 200 / scale
        let sample = try Timing.measure(count: rounds) { round in
            _ = try sim.send(from: round % nodeCount, text: "benchmark message \(round)")
            sim.run(for: .milliseconds(100))
        }
        let frames = sim.framesDelivered - framesBefore
        let delivered = sim.nodes.reduce(0) { $0 + $1.delivered.count }
        output.line("\(nodeCount)-node full mesh: \(rounds) broadcasts, \(delivered) deliveries, \(frames) frames in \(rounded(sample.wallSeconds, 3)) s wall")
        output.row("  frames handled per wall second", formatRate(Double(frames) / sample.wallSeconds))
        // What a node does most of its life: a tick every tick interval and a heartbeat per neighbour every 10 s.
        let idleDuration = Duration.seconds(600 / scale)
        let idle = Timing.measure(count: 1) { _ in sim.run(for: idleDuration) }
        let nodeTicks = nodeCount * Int(idleDuration / sim.tickInterval)
        let perNodeTick = idle.cpuSeconds * 1e6 / Double(nodeTicks)
        output.row("  idle, CPU per node-tick (\(nodeCount - 1) links, heartbeats only)", "\(rounded(perNodeTick, 2)) µs")
        return SimulatorReport(
            broadcasts: rounds, deliveries: delivered, frames: frames, wallSeconds: sample.wallSeconds,
            cpuSeconds: sample.cpuSeconds, framesPerWallSecond: Double(frames) / sample.wallSeconds,
            idleNodeTicks: nodeTicks, idleMicrosecondsPerNodeTick: perNodeTick)
    }
}
