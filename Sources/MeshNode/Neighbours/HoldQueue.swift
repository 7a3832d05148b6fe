import MeshProtocol

/// Envelopes waiting for neighbours that have no ready link, bounded by `HoldLimits`.
///
/// A pure value: no links, no clocks (time is passed in). Each neighbour has a first-in
/// first-out queue; a held envelope keeps its hop count and route, so it goes out exactly as
/// it would have. When a bound is reached the oldest envelope (of that neighbour, or of all
/// neighbours for `totalBytes`) is evicted and counted.
public struct HoldQueue: Sendable {
    struct Entry: Sendable {
        let envelope: Envelope
        let size: Int
        let heldAt: Duration
        let sequence: UInt64
    }

    /// The limits in force.
    public let limits: HoldLimits
    /// What has been held, sent late, expired and evicted.
    public private(set) var counters = HoldCounters()
    /// Encoded bytes held for all neighbours.
    public private(set) var totalBytes = 0
    private var queues: [NodeID: [Entry]] = [:]
    private var bytes: [NodeID: Int] = [:]
    private var nextSequence: UInt64 = 0

    /// Creates an empty queue.
    public init(limits: HoldLimits) { self.limits = limits }

    /// Envelopes held for all neighbours.
    public var count: Int { queues.values.reduce(0) { $0 + $1.count } }

    /// Envelopes held for one neighbour.
    public func count(for node: NodeID) -> Int { queues[node]?.count ?? 0 }

    /// Holds `envelope` for `node`; false (and nothing held) when the limits allow nothing or
    /// the same message is already held for it.
    @discardableResult
    public mutating func hold(_ envelope: Envelope, for node: NodeID, now: Duration) -> Bool {
        let size = envelope.encodedSize
        guard limits.messagesPerNeighbour > 0, size <= limits.bytesPerNeighbour, size <= limits.totalBytes,
            limits.maxAge > .zero
        else { return false }
        if queues[node]?.contains(where: { $0.envelope.messageID == envelope.messageID }) == true { return false }
        while count(for: node) >= limits.messagesPerNeighbour || (bytes[node] ?? 0) + size > limits.bytesPerNeighbour {
            removeOldest(of: node)
            counters.evicted += 1
        }
        while totalBytes + size > limits.totalBytes, let oldest = oldestNeighbour() {
            removeOldest(of: oldest)
            counters.evicted += 1
        }
        queues[node, default: []].append(Entry(envelope: envelope, size: size, heldAt: now, sequence: nextSequence))
        nextSequence += 1
        bytes[node, default: 0] += size
        totalBytes += size
        counters.held += 1
        return true
    }

    /// Removes and returns everything held for `node` that is still young enough, oldest first;
    /// the rest is counted as expired. The caller sends them and reports with `recordSentLate`.
    public mutating func release(for node: NodeID, now: Duration) -> [Envelope] {
        guard let entries = queues.removeValue(forKey: node) else { return [] }
        totalBytes -= bytes.removeValue(forKey: node) ?? 0
        var fresh: [Envelope] = []
        for entry in entries {
            if now - entry.heldAt < limits.maxAge { fresh.append(entry.envelope) } else { counters.expired += 1 }
        }
        return fresh
    }

    /// Counts held envelopes that went out.
    public mutating func recordSentLate(_ count: Int) { counters.sentLate += UInt64(count) }

    /// Counts envelopes sent again because their link went down.
    public mutating func recordResent(_ count: Int) { counters.resent += UInt64(count) }

    /// Drops everything held for `node` (it departed), counted as expired; returns it, oldest
    /// first (a mailbox keeps the direct messages addressed to `node`).
    @discardableResult
    public mutating func discard(for node: NodeID) -> [Envelope] {
        guard let entries = queues.removeValue(forKey: node) else { return [] }
        totalBytes -= bytes.removeValue(forKey: node) ?? 0
        counters.expired += UInt64(entries.count)
        return entries.map(\.envelope)
    }

    /// Drops every envelope held longer than `maxAge`, counted as expired.
    public mutating func expire(now: Duration) {
        for node in Array(queues.keys) {
            while let first = queues[node]?.first, now - first.heldAt >= limits.maxAge {
                removeOldest(of: node)
                counters.expired += 1
            }
        }
    }

    private mutating func removeOldest(of node: NodeID) {
        guard var entries = queues[node], !entries.isEmpty else { return }
        let removed = entries.removeFirst()
        bytes[node, default: 0] -= removed.size
        totalBytes -= removed.size
        if entries.isEmpty {
            queues[node] = nil
            bytes[node] = nil
        } else {
            queues[node] = entries
        }
    }

    private func oldestNeighbour() -> NodeID? {
        queues.min { ($0.value.first?.sequence ?? .max) < ($1.value.first?.sequence ?? .max) }?.key
    }
}
