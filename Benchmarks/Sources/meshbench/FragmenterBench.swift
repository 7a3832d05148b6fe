import Fragmenter
import MeshProtocol

/// Split and reassembly of 1 KiB messages at MTU 185.
struct FragmenterReport: Codable {
    var splitPerSecond: Double
    var reassemblePerSecond: Double
    /// reassembly time / split time.
    var reassemblyToSplitTimeRatio: Double
}

enum FragmenterBench {
    static func run(_ output: Output, scale: Int) -> FragmenterReport {
        output.heading("Fragmenter (1 KiB messages, CPU time)")
        var random = SplitMix64(seed: 7)
        let message = (0..<1024).map { _ in UInt8.random(in: 0...255, using: &random) }
        var sender = FrameSender(random: SplitMix64(seed: 1))
        var reassemblers = LinkReassemblers<Int>()
        var splits: [SplitMessage] = []
        let count = 50_000 / scale
        let split = Timing.measure(count: count) { index in
            if let split = try? sender.split(message, kind: 2, mtu: 185, now: .milliseconds(index)) {
                if index < 2_000 { splits.append(split) }
            }
        }
        output.row("split at MTU 185", formatRate(split.perCPUSecond))
        var completed = 0
        let reassemble = Timing.measure(count: count) { index in
            let split = splits[index % splits.count]
            for frame in split.frames {
                if case .complete? = try? reassemblers.receive(frame, on: index % 8, now: .milliseconds(index)) { completed += 1 }
            }
        }
        output.row("reassemble at MTU 185 (per message)", formatRate(reassemble.perCPUSecond))
        let ratio = split.perCPUSecond / reassemble.perCPUSecond
        output.line("  reassembly / split time ratio: \(rounded(ratio))")
        return FragmenterReport(
            splitPerSecond: split.perCPUSecond, reassemblePerSecond: reassemble.perCPUSecond, reassemblyToSplitTimeRatio: ratio)
    }
}
