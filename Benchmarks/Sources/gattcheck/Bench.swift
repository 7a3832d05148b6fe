import Dispatch
import Foundation
import MeshLink
import Synchronization

/// One link's throughput and per-frame delay (`--bench N`; docs/PERFORMANCE.md, "One BLE link").
///
/// Once the first link is up the sender waits 2 s, then sends a latency phase (`--bench-latency`
/// frames `--bench-gap` seconds apart, so none waits behind another) and a throughput phase (N frames
/// of the link's limit, never more than `--bench-window` handed to the transport and not yet written).
/// Every frame carries its send time on the VM's monotonic clock, which both instances share, so the
/// receiver measures one-way delays; it prints BENCH lines at the end.
extension Checker {
    static let benchStarted = Atomic<Bool>(false)

    func startBench(on id: LinkID) {
        guard !Checker.benchStarted.exchange(true, ordering: .relaxed) else { return }
        queue.asyncAfter(deadline: .now() + 2) { [self] in
            say("BENCH-TX latency phase: \(options.benchLatencyFrames) frames, \(options.benchGap) s apart, write type \(options.writeType.rawValue)")
            for seq in 1...max(1, options.benchLatencyFrames) {
                sendBenchFrame("L", seq, on: id, full: false)
                Thread.sleep(forTimeInterval: options.benchGap)
            }
            Thread.sleep(forTimeInterval: 1)
            say("BENCH-TX throughput phase: \(options.bench) frames, window \(options.benchWindow)")
            let base = settled()
            var sent = 0
            let begin = elapsed()
            while sent < options.bench {
                guard state.withLock({ $0.links[id] != nil }) else { say("BENCH-TX link lost after \(sent) frames"); return }
                if sent - (settled() - base) < options.benchWindow {
                    sent += 1
                    sendBenchFrame("T", sent, on: id, full: true)
                } else {
                    Thread.sleep(forTimeInterval: 0.0005)
                }
            }
            while settled() - base < sent, elapsed() - begin < 120 { Thread.sleep(forTimeInterval: 0.001) }
            say(String(format: "BENCH-TX done: %d frames settled in %.3f s", sent, elapsed() - begin))
        }
    }

    /// Frames the transport has finished with: written (acknowledged or queued by bluetoothd), failed, refused.
    private func settled() -> Int {
        let c = transport.counters
        return c.framesWritten + c.writesFailed + c.framesRefused
    }

    private func sendBenchFrame(_ kind: String, _ seq: Int, on id: LinkID, full: Bool) {
        let limit = state.withLock { $0.links[id]?.mtu } ?? 20
        var body = frame(kind, "\(seq) \(DispatchTime.now().uptimeNanoseconds) ")
        if full { body += [UInt8](repeating: UInt8(ascii: "x"), count: max(0, limit - body.count)) }
        _ = transport.send(body, on: id)
    }

    func benchReceived(_ kind: String, _ rest: String, bytes: Int) {
        let fields = rest.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, let seq = Int(fields[0]), let sent = UInt64(fields[1]) else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let delay = Double(now &- sent) / 1e6
        let at = elapsed()
        state.withLock {
            var r = $0.bench[kind] ?? BenchReceipts()
            r.delays.append(delay)
            r.bytes += bytes
            if r.first == nil { r.first = at }
            r.last = at
            if seq <= r.lastSeq { r.outOfOrder += 1 }
            r.lastSeq = max(r.lastSeq, seq)
            $0.bench[kind] = r
        }
    }

    func benchReport(_ final: Observations) -> [String] {
        final.bench.sorted { $0.key < $1.key }.map { kind, r in
            let sorted = r.delays.sorted()
            func pct(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            let span = (r.last ?? 0) - (r.first ?? 0)
            let rate = span > 0 ? Double(r.delays.count - 1) / span : 0
            let kbps = span > 0 ? Double(r.bytes) / span / 1000 : 0
            return String(format: "BENCH-RX %@ frames=%d bytes=%d span=%.3fs frames/s=%.1f kB/s=%.1f delay-ms p50=%.1f p95=%.1f max=%.1f out-of-order=%d",
                          kind == "L" ? "latency" : "throughput", r.delays.count, r.bytes, span, rate, kbps,
                          pct(0.5), pct(0.95), sorted.last ?? 0, r.outOfOrder)
        }
    }
}
