import Flooding
import Foundation
import MeshProtocol

/// The seen cache and the relay decision alone.
struct SeenCacheReport: Codable {
    var insertPerSecond: Double
    var lookupPerSecond: Double
    var lookupToInsertRatio: Double
    var relayDecisionPerSecond: Double
    /// Resident growth for a full cache of 65,536 IDs.
    var fullCacheResidentBytes: Int
}

enum SeenCacheBench {
    static func run(_ output: Output, scale: Int) -> SeenCacheReport {
        output.heading("Seen cache and relay rules (CPU time)")
        var random = SplitMix64(seed: 7)
        let ids = (0..<200_000).map { _ in MessageID(random: &random) }
        let count = ids.count / scale
        var seen = SeenCache(capacity: 65_536, lifetime: .seconds(600))
        let insert = Timing.measure(count: count) { index in seen.insert(ids[index], now: .milliseconds(index)) }
        output.row("seen cache insert (65,536 cap, evicting)", formatRate(insert.perCPUSecond))
        let lookup = Timing.measure(count: count) { index in
            _ = seen.contains(ids[(index * 7) % ids.count], now: .seconds(1))
        }
        output.row("seen cache lookup", formatRate(lookup.perCPUSecond))
        output.line("  lookup / insert ratio: \(rounded(lookup.perCPUSecond / insert.perCPUSecond))")
        let nodes = (0..<8).map { try! NodeID(bytes: Array(repeating: UInt8($0 + 1), count: 16)) }
        var router = FloodRouter(localNode: nodes[0])
        let decision = Timing.measure(count: count) { index in
            let envelope = Envelope(kind: .message, messageID: ids[index], origin: nodes[1], hops: 1,
                                    route: [nodes[1], nodes[2]], timestamp: 0)
            _ = router.receive(envelope, from: nodes[2], neighbours: nodes, now: .milliseconds(index))
        }
        output.row("relay decision (8 neighbours)", formatRate(decision.perCPUSecond))
        let before = residentBytes()
        var fullCache = SeenCache(capacity: 65_536, lifetime: .seconds(600))
        for index in 0..<65_536 { fullCache.insert(ids[index], now: .milliseconds(index)) }
        let cacheBytes = residentBytes() - before
        output.row("seen cache memory at 65,536 IDs (RSS growth)",
                   "\(rounded(Double(cacheBytes) / 1_048_576, 1)) MiB for \(fullCache.size) IDs")
        return SeenCacheReport(
            insertPerSecond: insert.perCPUSecond, lookupPerSecond: lookup.perCPUSecond,
            lookupToInsertRatio: lookup.perCPUSecond / insert.perCPUSecond,
            relayDecisionPerSecond: decision.perCPUSecond, fullCacheResidentBytes: cacheBytes)
    }

    /// Resident memory of this process in bytes (VmRSS), or 0 where /proc is missing.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}
