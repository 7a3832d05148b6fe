import Foundation
import MeshLink

/// What one instance saw.
struct Observations {
    var links: [LinkID: LinkInfo] = [:]
    var peerOf: [LinkID: String] = [:]
    var received: [String: Int] = [:]
    var receivedSinceLoss: [String: Int] = [:]
    var sent = 0
    /// Frames one byte over the link's limit handed to the transport (each must be refused on the loop thread).
    var oversizeSent = 0
    var lastLoss: Double?
    var recoveries: [String] = []
    var firstLinkAt: Double?
    /// Benchmark frames received, by phase ("L" latency, "T" throughput).
    var bench: [String: BenchReceipts] = [:]
}

/// Benchmark frames one receiver saw in one phase: one-way delays (sender and receiver share the VM's
/// monotonic clock) and when the first and last arrived.
struct BenchReceipts {
    var delays: [Double] = []
    var bytes = 0
    var first: Double?
    var last: Double?
    var outOfOrder = 0
    var lastSeq = 0
}
