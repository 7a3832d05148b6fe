import MeshProtocol

/// A bounded cache of recently seen message IDs with expiry.
///
/// Insert and lookup are O(1). Entries live in a ring in insertion order; because every
/// entry lives equally long, the oldest entry is both the first to expire and the one
/// evicted when the cache is full. Memory at the default 65,536 IDs is about 6.6 MiB: the
/// index reserves 131,072 hash buckets of 32 bytes (16-byte key, 16-byte `Duration`) and the
/// ring 65,536 slots of 40 bytes; meshbench measured 6.7 MiB of resident growth. Both are
/// reserved, not written, at start: pages become resident as IDs arrive.
public struct SeenCache: Sendable {
    /// A message ID folded into two machine words, so entries need no heap storage.
    struct Key: Hashable, Sendable {  // also keys ShorterPathMemory
        var high: UInt64
        var low: UInt64

        init(_ id: MessageID) {
            var high: UInt64 = 0
            var low: UInt64 = 0
            for index in 0..<8 { high = high << 8 | UInt64(id.bytes[index]) }
            for index in 8..<16 { low = low << 8 | UInt64(id.bytes[index]) }
            self.high = high
            self.low = low
        }

        /// The message ID this key was folded from.
        var messageID: MessageID {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(16)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
            return try! MessageID(bytes: bytes)  // always 16 bytes
        }
    }

    /// One remembered ID and when it expires, for keeping the cache across a restart.
    public struct Record: Equatable, Sendable {
        /// The message ID.
        public var messageID: MessageID
        /// When it expires, on the cache's clock.
        public var expiresAt: Duration

        /// Creates a record.
        public init(messageID: MessageID, expiresAt: Duration) {
            self.messageID = messageID
            self.expiresAt = expiresAt
        }
    }

    private struct Slot: Sendable {
        var key: Key
        var expiresAt: Duration
    }

    /// The most IDs held at once.
    public let capacity: Int
    /// How long an ID is remembered.
    public let lifetime: Duration

    private var ring: [Slot?]
    private var head = 0  // index of the oldest slot
    private var count = 0
    private var index: [Key: Duration] = [:]
    /// IDs evicted before they expired because the cache was full.
    public private(set) var evictions: UInt64 = 0
    /// When the newest ID evicted before its expiry had been inserted: every ID inserted
    /// later is still held (see ``vouchedSince(now:)``).
    public private(set) var lastEvictedInsertedAt: Duration?
    /// True when inserts are kept in ``newlyInserted`` for a journal (off by default).
    public var keepsNewlyInserted = false
    /// The IDs inserted since ``takeNewlyInserted()`` last ran, oldest first; only while
    /// ``keepsNewlyInserted`` is true. The caller drains it after every event.
    public private(set) var newlyInserted: [Record] = []

    /// Creates an empty cache.
    public init(capacity: Int = 65_536, lifetime: Duration = .seconds(600)) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
        // Reserved, not filled: the slots become resident as IDs arrive, not at start (an idle
        // node with the default capacity would otherwise hold 2.5 MiB of empty slots).
        self.ring = []
        self.ring.reserveCapacity(self.capacity)
        self.index.reserveCapacity(self.capacity)
    }

    /// How many IDs are held.
    public var size: Int { count }

    /// True when `id` was inserted and has not expired at `now`.
    public func contains(_ id: MessageID, now: Duration) -> Bool {
        guard let expiry = index[Key(id)] else { return false }
        return expiry > now
    }

    /// When `id` was inserted, if it is held and has not expired at `now`.
    public func insertedAt(_ id: MessageID, now: Duration) -> Duration? {
        guard let expiry = index[Key(id)], expiry > now else { return nil }
        return expiry - lifetime
    }

    /// Records `id` as seen at `now`; returns false when it was already present.
    @discardableResult
    public mutating func insert(_ id: MessageID, now: Duration) -> Bool {
        expire(now: now)
        let key = Key(id)
        if let expiry = index[key], expiry > now { return false }
        if count == capacity, let oldest = ring[head] {
            lastEvictedInsertedAt = oldest.expiresAt - lifetime
            removeOldest()
            evictions += 1
        }
        let expiresAt = now + lifetime
        store(Slot(key: key, expiresAt: expiresAt))
        count += 1
        index[key] = expiresAt
        if keepsNewlyInserted { newlyInserted.append(Record(messageID: id, expiresAt: expiresAt)) }
        return true
    }

    /// The IDs inserted since the last call, oldest first, and forgets them.
    public mutating func takeNewlyInserted() -> [Record] {
        guard !newlyInserted.isEmpty else { return [] }
        defer { newlyInserted.removeAll(keepingCapacity: true) }
        return newlyInserted
    }

    /// The earliest time from which the cache still holds every ID inserted: `now - lifetime`,
    /// or later when the cache was full and had to forget IDs before they expired. A message
    /// first seen before this time could be taken for new.
    public func vouchedSince(now: Duration) -> Duration {
        let byLifetime = now - lifetime
        guard let evicted = lastEvictedInsertedAt, evicted > byLifetime else { return byLifetime }
        return evicted
    }

    /// Every ID still remembered at `now`, oldest first.
    public func records(now: Duration) -> [Record] {
        (0..<count).compactMap { offset in
            guard let slot = ring[(head + offset) % capacity], slot.expiresAt > now else { return nil }
            return Record(messageID: slot.key.messageID, expiresAt: slot.expiresAt)
        }
    }

    /// Remembers `records` (oldest first, as ``records(now:)`` gives them) with their own
    /// expiry, and that nothing inserted before `vouchedSince` is known: the cache a node kept
    /// across a restart. Records already expired at `now` are skipped; one that would outlive a
    /// fresh insert (a journal rounds expiries up to whole seconds, or the clock went back across
    /// the restart) is kept as if inserted at `now`; at most `capacity` of the newest are kept.
    public mutating func restore(_ records: [Record], vouchedSince: Duration, now: Duration) {
        let latest = now + lifetime
        for record in records.suffix(capacity) where record.expiresAt > now {
            let key = Key(record.messageID)
            guard index[key] == nil else { continue }
            let expiresAt = min(record.expiresAt, latest)
            if count == capacity { removeOldest() }
            store(Slot(key: key, expiresAt: expiresAt))
            count += 1
            index[key] = expiresAt
        }
        lastEvictedInsertedAt = max(lastEvictedInsertedAt ?? vouchedSince, vouchedSince)
    }

    /// Forgets every ID that has expired at `now`.
    public mutating func expire(now: Duration) {
        while count > 0, let oldest = ring[head], oldest.expiresAt <= now {
            removeOldest()
        }
    }

    private mutating func removeOldest() {
        guard let oldest = ring[head] else { return }
        if index[oldest.key] == oldest.expiresAt { index[oldest.key] = nil }
        ring[head] = nil
        head = (head + 1) % capacity
        count -= 1
    }

    /// Puts `slot` after the newest: `(head + count) % capacity` counts every insert ever made
    /// (removals move head and count together), so until the ring is full it is its end.
    private mutating func store(_ slot: Slot) {
        let position = (head + count) % capacity
        if position == ring.count { ring.append(slot) } else { ring[position] = slot }
    }
}
