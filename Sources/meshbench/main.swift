// meshbench: release-build benchmarks of the hot paths. Run with
//   swift run -c release meshbench
// Figures are printed as operations per second and as ratios measured in the same run.
import Flooding
import Foundation
import Fragmenter
import MeshCrypto
import MeshNode
import MeshProtocol
import MeshSim

let clock = ContinuousClock()

/// Runs `body` `count` times and returns operations per second.
func measure(_ name: String, count: Int, _ body: (Int) -> Void) -> Double {
    let start = clock.now
    for index in 0..<count { body(index) }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = Double(count) / seconds
    print(String(describing: name).padding(toLength: 44, withPad: " ", startingAt: 0), formatRate(rate))
    return rate
}

func formatRate(_ rate: Double) -> String {
    rate >= 1e6 ? "\((rate / 1e5).rounded() / 10) M/s" : rate >= 1e3 ? "\((rate / 1e2).rounded() / 10) k/s" : "\(rate.rounded()) /s"
}

var random = SplitMix64(seed: 7)
print("== Fragmenter (1 KiB messages)")
let message = (0..<1024).map { _ in UInt8.random(in: 0...255, using: &random) }
var sender = FrameSender(random: SplitMix64(seed: 1))
var reassemblers = LinkReassemblers<Int>()
var splits: [SplitMessage] = []
let splitRate = measure("split at MTU 185", count: 50_000) { index in
    if let split = try? sender.split(message, kind: 2, mtu: 185, now: .milliseconds(index)) {
        if index < 2_000 { splits.append(split) }
    }
}
var completed = 0
let reassembleRate = measure("reassemble at MTU 185 (per message)", count: 50_000) { index in
    let split = splits[index % splits.count]
    for frame in split.frames {
        if case .complete? = try? reassemblers.receive(frame, on: index % 8, now: .milliseconds(index)) { completed += 1 }
    }
}
print("  reassembly / split time ratio: \(((splitRate / reassembleRate) * 100).rounded() / 100)")

print("== Seen cache and relay rules")
let ids = (0..<200_000).map { _ in MessageID(random: &random) }
var seen = SeenCache(capacity: 65_536, lifetime: .seconds(600))
let insertRate = measure("seen cache insert (65,536 cap, evicting)", count: ids.count) { index in
    seen.insert(ids[index], now: .milliseconds(index))
}
let lookupRate = measure("seen cache lookup", count: ids.count) { index in
    _ = seen.contains(ids[(index * 7) % ids.count], now: .seconds(1))
}
print("  lookup / insert ratio: \(((lookupRate / insertRate) * 100).rounded() / 100)")
let nodes = (0..<8).map { try! NodeID(bytes: Array(repeating: UInt8($0 + 1), count: 16)) }
var router = FloodRouter(localNode: nodes[0])
_ = measure("relay decision (8 neighbours)", count: 200_000) { index in
    let envelope = Envelope(kind: .message, messageID: ids[index], origin: nodes[1], hops: 1,
                            route: [nodes[1], nodes[2]], timestamp: 0)
    _ = router.receive(envelope, from: nodes[2], neighbours: nodes, now: .milliseconds(index))
}

/// Resident memory of this process in bytes (VmRSS), or 0 where /proc is missing.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
}
let beforeCache = residentBytes()
var fullCache = SeenCache(capacity: 65_536, lifetime: .seconds(600))
for index in 0..<65_536 { fullCache.insert(ids[index], now: .milliseconds(index)) }
let cacheBytes = residentBytes() - beforeCache
print("seen cache memory at 65,536 IDs (RSS growth)".padding(toLength: 44, withPad: " ", startingAt: 0),
      "\((Double(cacheBytes) / 1_048_576 * 10).rounded() / 10) MiB for \(fullCache.size) IDs")

print("== Crypto (OpenSSL 3)")
for (name, rate) in try CryptoBenchmark.run(iterations: 2_000).sorted(by: { $0.key < $1.key }) {
    print(name.padding(toLength: 44, withPad: " ", startingAt: 0), formatRate(rate))
}

print("== Whole engine in the simulator")
let sim = try MeshSimulator(nodeCount: 10, seed: 5)
for a in 0..<10 { for b in (a + 1)..<10 { sim.connect(a, b) } }
sim.run(for: .seconds(10))
let wallStart = clock.now
for round in 0..<200 {
    _ = try sim.send(from: round % 10, text: "benchmark message \(round)")
    sim.run(for: .milliseconds(100))
}
let wall = clock.now - wallStart
let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
let delivered = sim.nodes.reduce(0) { $0 + $1.delivered.count }
print("10-node full mesh: 200 broadcasts, \(delivered) deliveries, \(sim.framesDelivered) frames in \(wallSeconds) s wall")
print("  frames handled per wall second: \(formatRate(Double(sim.framesDelivered) / wallSeconds))")
