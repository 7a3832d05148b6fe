import CAllocationCounter
import Foundation

/// One measured run: how many operations, the CPU time of the measuring thread, the wall time
/// and the heap allocations of the whole process while it ran.
struct Sample: Codable {
    /// Operations done.
    var operations: Int
    /// CPU seconds of this thread (CLOCK_THREAD_CPUTIME_ID: user + system).
    var cpuSeconds: Double
    /// Wall seconds (CLOCK_MONOTONIC).
    var wallSeconds: Double
    /// malloc-family calls counted by CAllocationCounter, every thread.
    var allocations: UInt64

    /// Operations per CPU second of one core.
    var perCPUSecond: Double { cpuSeconds > 0 ? Double(operations) / cpuSeconds : 0 }
    /// Allocations per operation.
    var allocationsPerOperation: Double { operations > 0 ? Double(allocations) / Double(operations) : 0 }
}

enum Timing {
    /// Seconds of CPU this thread has used.
    static func threadCPUSeconds() -> Double { seconds(of: CLOCK_THREAD_CPUTIME_ID) }

    /// Seconds on the monotonic clock.
    static func monotonicSeconds() -> Double { seconds(of: CLOCK_MONOTONIC) }

    private static func seconds(of clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Runs `body` `count` times on this thread and measures it. Never inlined, so
    /// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*Timing*measure*'`
    /// counts the timed loop alone.
    @inline(never)
    static func measure(count: Int, _ body: (Int) throws -> Void) rethrows -> Sample {
        let allocationsBefore = allocation_counter_total()
        let wallStart = monotonicSeconds()
        let cpuStart = threadCPUSeconds()
        for index in 0..<count { try body(index) }
        let cpu = threadCPUSeconds() - cpuStart
        let wall = monotonicSeconds() - wallStart
        return Sample(
            operations: count, cpuSeconds: cpu, wallSeconds: wall,
            allocations: allocation_counter_total() - allocationsBefore)
    }
}

/// Formats a rate for the text table.
func formatRate(_ rate: Double) -> String {
    rate >= 1e6 ? "\((rate / 1e5).rounded() / 10) M/s" : rate >= 1e3 ? "\((rate / 1e2).rounded() / 10) k/s" : "\(rate.rounded()) /s"
}

/// Rounds to `places` decimals for printing.
func rounded(_ value: Double, _ places: Int = 2) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
}
