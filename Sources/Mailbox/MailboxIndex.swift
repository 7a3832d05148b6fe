import MeshProtocol

/// The mailbox's decisions as a pure value: admission under the caps, eviction, expiry and
/// which held messages go out next. No storage, no clock: times are passed in, in
/// milliseconds since the Unix epoch.
///
/// Eviction (docs/SECURITY.md, "Mailboxes"): a message that would break a recipient's,
/// origin's or depositor's cap pushes out the oldest message of that same recipient, origin or
/// depositor, so each pays for its own excess; one that would break the total cap pushes out the
/// oldest message of the depositor holding the most bytes (bitchat's per-depositor quota, LXMF's
/// size-weighted eviction). A neighbour that floods therefore evicts its own mail first, and an
/// honest depositor loses mail to the total cap only while it holds more bytes than every other.
public struct MailboxIndex: Sendable {
    /// The limits in force.
    public let limits: MailboxLimits
    /// What was deposited, handed over and dropped.
    public private(set) var counters = MailboxCounters()
    /// Entries by message ID.
    public private(set) var entries: [MessageID: MailboxEntry] = [:]
    /// Encoded bytes held in all.
    public private(set) var totalBytes = 0
    private var recipientLoad: [NodeID: Load] = [:]
    private var originLoad: [NodeID: Load] = [:]
    private var depositorLoad: [NodeID: Load] = [:]
    private var nextSequence: UInt64 = 0

    struct Load: Sendable {
        var count = 0
        var bytes = 0
    }

    /// Creates an empty index.
    public init(limits: MailboxLimits) { self.limits = limits }

    /// Messages held.
    public var count: Int { entries.count }

    /// Every recipient with mail held.
    public var recipients: [NodeID] { Array(recipientLoad.keys) }

    /// Messages held for `recipient`.
    public func count(for recipient: NodeID) -> Int { recipientLoad[recipient]?.count ?? 0 }

    /// Messages held from `depositor`.
    public func count(fromDepositor depositor: NodeID) -> Int { depositorLoad[depositor]?.count ?? 0 }

    /// Restores an entry read back from storage (no counters move; caps were checked when it came).
    public mutating func restore(_ entry: MailboxEntry) {
        guard entries[entry.messageID] == nil else { return }
        nextSequence = max(nextSequence, entry.sequence &+ 1)
        insert(entry)
    }

    /// Offers a message stamped `timestamp` for admission at `now`; on `.held` it is in the index.
    public mutating func admit(
        messageID: MessageID, recipient: NodeID, origin: NodeID, depositor: NodeID, size: Int, timestamp: UInt64,
        now: UInt64
    ) -> MailboxAdmission {
        if let refusal = refusal(messageID: messageID, size: size, timestamp: timestamp, now: now) {
            counters.count(refusal)
            return .refused(refusal)
        }
        var evicted: [MailboxEviction] = []
        func evict(_ cause: MailboxDropCause, where matches: (MailboxEntry) -> Bool) {
            guard let oldest = oldest(where: matches) else { return }
            remove(oldest.messageID)
            counters.count(cause)
            evicted.append(MailboxEviction(messageID: oldest.messageID, cause: cause))
        }
        while exceeds(recipientLoad[recipient], size, limits.messagesPerRecipient, limits.bytesPerRecipient) {
            evict(.evictedRecipientCap) { $0.recipient == recipient }
        }
        while exceeds(originLoad[origin], size, limits.messagesPerOrigin, Int.max) {
            evict(.evictedOriginCap) { $0.origin == origin }
        }
        while exceeds(depositorLoad[depositor], size, limits.messagesPerDepositor, limits.bytesPerDepositor) {
            evict(.evictedDepositorCap) { $0.depositor == depositor }
        }
        while !entries.isEmpty, entries.count + 1 > limits.totalMessages || totalBytes + size > limits.totalBytes {
            guard let heaviest = depositorLoad.max(by: { ($0.value.bytes, $1.key) < ($1.value.bytes, $0.key) })?.key
            else { break }
            evict(.evictedTotalCap) { $0.depositor == heaviest }
        }
        insert(MailboxEntry(
            messageID: messageID, recipient: recipient, origin: origin, depositor: depositor, size: size,
            depositedAt: now, sequence: nextSequence))
        nextSequence &+= 1
        counters.deposited += 1
        return .held(evicted: evicted)
    }

    /// Removes a message the recipient's link accepted, and counts it delivered.
    @discardableResult
    public mutating func handedOver(_ messageID: MessageID) -> Bool {
        guard remove(messageID) != nil else { return false }
        counters.delivered += 1
        return true
    }

    /// Removes every message held longer than the retention; returns their IDs.
    public mutating func expire(now: UInt64) -> [MessageID] {
        let gone = entries.values.filter { now &- $0.depositedAt >= limits.retentionMilliseconds || $0.depositedAt > now &+ limits.retentionMilliseconds }
            .map(\.messageID)
        for id in gone {
            remove(id)
            counters.count(.expired)
        }
        return gone
    }

    /// The next messages to hand to `recipient` over its own link: oldest first, at most
    /// `handOversPerTick`, leaving out those `skip` names (sent already, waiting for their link).
    public func handOverBatch(for recipient: NodeID, skip: (MessageID) -> Bool = { _ in false }) -> [MailboxEntry] {
        guard count(for: recipient) > 0 else { return [] }
        return entries.values.filter { $0.recipient == recipient && !skip($0.messageID) }.sorted { $0.sequence < $1.sequence }
            .prefix(limits.handOversPerTick).map { $0 }
    }

    /// Messages for `recipient` (heard some hops away) whose copy interval has passed, oldest
    /// first, at most `handOversPerTick`; each is marked as copied at `now`.
    public mutating func copiesDue(for recipient: NodeID, now: UInt64) -> [MailboxEntry] {
        guard count(for: recipient) > 0 else { return [] }
        let due = entries.values.filter {
            $0.recipient == recipient && ($0.lastCopyAt.map { now &- $0 >= limits.copyIntervalMilliseconds } ?? true)
        }.sorted { $0.sequence < $1.sequence }.prefix(limits.handOversPerTick)
        for entry in due { entries[entry.messageID]?.lastCopyAt = now }
        counters.copiesSent += UInt64(due.count)
        return Array(due)
    }

    /// Counts what the store could not do.
    public mutating func recordStoreError() { counters.storeErrors += 1 }

    /// Counts a committed write transaction.
    public mutating func recordCommit() { counters.commits += 1 }

    /// Per recipient: count, bytes and oldest deposit, sorted by recipient.
    public func summaries() -> [MailboxRecipientSummary] {
        var byRecipient: [NodeID: MailboxRecipientSummary] = [:]
        for entry in entries.values {
            var summary = byRecipient[entry.recipient]
                ?? MailboxRecipientSummary(recipient: entry.recipient, count: 0, bytes: 0, oldestDepositedAt: entry.depositedAt)
            summary.count += 1
            summary.bytes += entry.size
            summary.oldestDepositedAt = min(summary.oldestDepositedAt, entry.depositedAt)
            byRecipient[entry.recipient] = summary
        }
        return byRecipient.values.sorted { $0.recipient < $1.recipient }
    }

    private func refusal(messageID: MessageID, size: Int, timestamp: UInt64, now: UInt64) -> MailboxDropCause? {
        if entries[messageID] != nil { return .refusedDuplicate }
        if size > limits.maxMessageBytes || size > limits.totalBytes || size > limits.bytesPerRecipient
            || size > limits.bytesPerDepositor || limits.totalMessages < 1 || limits.messagesPerRecipient < 1
            || limits.messagesPerOrigin < 1 || limits.messagesPerDepositor < 1
        {
            return .refusedTooLarge
        }
        if timestamp < now, now - timestamp >= limits.retentionMilliseconds { return .refusedExpired }
        return nil
    }

    private func exceeds(_ load: Load?, _ size: Int, _ maxCount: Int, _ maxBytes: Int) -> Bool {
        guard let load, load.count > 0 else { return false }
        return load.count + 1 > maxCount || load.bytes + size > maxBytes
    }

    private func oldest(where matches: (MailboxEntry) -> Bool) -> MailboxEntry? {
        var best: MailboxEntry?
        for entry in entries.values where matches(entry) {
            if best.map({ entry.sequence < $0.sequence }) ?? true { best = entry }
        }
        return best
    }

    private mutating func insert(_ entry: MailboxEntry) {
        entries[entry.messageID] = entry
        totalBytes += entry.size
        recipientLoad[entry.recipient, default: Load()].add(entry.size)
        originLoad[entry.origin, default: Load()].add(entry.size)
        depositorLoad[entry.depositor, default: Load()].add(entry.size)
    }

    /// Removes an entry without counting; returns it.
    @discardableResult
    public mutating func remove(_ messageID: MessageID) -> MailboxEntry? {
        guard let entry = entries.removeValue(forKey: messageID) else { return nil }
        totalBytes -= entry.size
        Self.subtract(entry.size, from: &recipientLoad, entry.recipient)
        Self.subtract(entry.size, from: &originLoad, entry.origin)
        Self.subtract(entry.size, from: &depositorLoad, entry.depositor)
        return entry
    }

    private static func subtract(_ size: Int, from loads: inout [NodeID: Load], _ key: NodeID) {
        guard var load = loads[key] else { return }
        load.count -= 1
        load.bytes -= size
        loads[key] = load.count <= 0 ? nil : load
    }
}

extension MailboxIndex.Load {
    mutating func add(_ size: Int) {
        count += 1
        bytes += size
    }
}
