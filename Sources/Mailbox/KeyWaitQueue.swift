import MeshProtocol

/// Messages this node's operator wrote to nodes whose key is not known yet, as a pure value:
/// admission under the caps, the lookup schedule per target (``KeyLookupBackoff``), what goes out
/// once a key is known, expiry. No storage, no clock: times are mesh milliseconds passed in.
///
/// A message over a cap is refused, not an older one evicted: the writer is told at once and the
/// messages already promised keep their place.
public struct KeyWaitQueue: Sendable {
    /// The limits in force.
    public let limits: KeyWaitLimits
    /// What was queued, sent, expired and refused.
    public private(set) var counters = KeyWaitCounters()
    /// Entries by message ID.
    public private(set) var entries: [MessageID: KeyWaitEntry] = [:]
    /// Text bytes waiting in all.
    public private(set) var totalBytes = 0
    private var targetState: [NodeID: TargetState] = [:]
    private var nextSequence: UInt64 = 0

    struct TargetState: Sendable {
        var count = 0
        var bytes = 0
        /// Lookups made for this target so far (0 after a restart: one is due at once).
        var attempts = 0
        var nextLookupAt: UInt64 = 0
    }

    /// Creates an empty queue.
    public init(limits: KeyWaitLimits) { self.limits = limits }

    /// Messages waiting.
    public var count: Int { entries.count }

    /// Every node with messages waiting for its key, sorted.
    public var targets: [NodeID] { targetState.keys.sorted() }

    /// Offers a message of `size` text bytes for `target`, written at `now`, whose first lookup
    /// the writer starts at once; on `.held` it is in the queue.
    public mutating func admit(messageID: MessageID, target: NodeID, size: Int, now: UInt64) -> KeyWaitAdmission {
        let load = targetState[target] ?? TargetState()
        guard load.count < limits.messagesPerTarget, load.bytes + size <= limits.bytesPerTarget else {
            counters.refusedTargetCap += 1
            return .refused(.targetCap)
        }
        guard entries.count < limits.totalMessages, totalBytes + size <= limits.totalBytes else {
            counters.refusedTotalCap += 1
            return .refused(.totalCap)
        }
        if targetState[target] == nil {
            targetState[target] = TargetState(attempts: 1, nextLookupAt: now &+ KeyLookupBackoff.delay(afterAttempt: 1))
        }
        insert(KeyWaitEntry(messageID: messageID, target: target, size: size, queuedAt: now, sequence: nextSequence))
        counters.queued += 1
        return .held
    }

    /// Restores an entry read back from storage; its target's lookup is due at once.
    public mutating func restore(_ entry: KeyWaitEntry) {
        guard entries[entry.messageID] == nil else { return }
        insert(entry)
    }

    /// Targets whose next lookup is due at `now`, sorted.
    public func lookupsDue(now: UInt64) -> [NodeID] {
        targetState.filter { $0.value.nextLookupAt <= now }.map(\.key).sorted()
    }

    /// A lookup for `target` was started at `now`: the next one follows the schedule.
    public mutating func lookupStarted(for target: NodeID, now: UInt64) {
        guard var state = targetState[target] else { return }
        if state.attempts > 0 { counters.lookupRetries += 1 }
        state.attempts += 1
        state.nextLookupAt = now &+ KeyLookupBackoff.delay(afterAttempt: state.attempts)
        targetState[target] = state
    }

    /// The messages waiting for `target`, oldest first.
    public func waiting(for target: NodeID) -> [KeyWaitEntry] {
        entries.values.filter { $0.target == target }.sorted { $0.sequence < $1.sequence }
    }

    /// A message went out (its key came); it leaves the queue. Returns whether it was here.
    @discardableResult
    public mutating func sent(_ messageID: MessageID) -> Bool {
        guard remove(messageID) != nil else { return false }
        counters.sent += 1
        return true
    }

    /// Removes a message without counting it (its text could not be read).
    @discardableResult
    public mutating func remove(_ messageID: MessageID) -> KeyWaitEntry? {
        guard let entry = entries.removeValue(forKey: messageID) else { return nil }
        totalBytes -= entry.size
        if var state = targetState[entry.target] {
            state.count -= 1
            state.bytes -= entry.size
            targetState[entry.target] = state.count > 0 ? state : nil
        }
        return entry
    }

    /// Removes a message its writer cancelled, counted in `cancelled`; nil when it is not here.
    public mutating func cancel(_ messageID: MessageID) -> KeyWaitEntry? {
        guard let entry = remove(messageID) else { return nil }
        counters.cancelled += 1
        return entry
    }

    /// Removes what waited the whole retention at `now`; returns their IDs, oldest first.
    public mutating func expire(now: UInt64) -> [MessageID] {
        let gone = entries.values.filter { now >= $0.queuedAt &+ limits.retentionMilliseconds }.sorted { $0.sequence < $1.sequence }
        for entry in gone { remove(entry.messageID) }
        counters.expired += UInt64(gone.count)
        return gone.map(\.messageID)
    }

    /// Per target: messages, text bytes and when the oldest was written; sorted by target.
    public func summaries() -> [(target: NodeID, count: Int, bytes: Int, oldestQueuedAt: UInt64)] {
        targets.map { target in
            let waiting = entries.values.filter { $0.target == target }
            return (target, waiting.count, waiting.reduce(0) { $0 + $1.size }, waiting.map(\.queuedAt).min() ?? 0)
        }
    }

    private mutating func insert(_ entry: KeyWaitEntry) {
        entries[entry.messageID] = entry
        totalBytes += entry.size
        nextSequence = max(nextSequence, entry.sequence &+ 1)
        targetState[entry.target, default: TargetState()].count += 1
        targetState[entry.target, default: TargetState()].bytes += entry.size
    }
}
