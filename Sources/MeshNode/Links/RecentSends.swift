import MeshProtocol

/// Messages and join notices sent on one link lately, oldest first, at most a count limit: a
/// ring, so dropping the oldest moves nothing (an array's `removeFirst` shifted every entry,
/// once per envelope sent). A dropped entry's slot is cleared at once.
struct RecentSends {
    private var slots: [(envelope: Envelope, sentAt: Duration)?] = []
    /// The slot of the oldest entry.
    private var head = 0
    /// Entries held.
    private(set) var count = 0

    /// Remembers a send at `now` for `window`, keeping at most `limit` (oldest dropped first).
    mutating func note(_ envelope: Envelope, now: Duration, window: Duration, limit: Int) {
        // Sends are noted in time order, so the expired ones are the oldest; a clock that went
        // back (never, in the engine) would leave some for the count limit to push out.
        while count > 0, let oldest = slots[head], now - oldest.sentAt >= window { removeOldest() }
        while count > 0, count >= limit { removeOldest() }
        if count == slots.count { grow(limit: limit) }
        slots[(head + count) % slots.count] = (envelope, now)
        count += 1
    }

    /// The envelopes sent less than `window` before `now`, oldest first.
    func envelopes(sentWithin window: Duration, before now: Duration) -> [Envelope] {
        var envelopes: [Envelope] = []
        for offset in 0..<count {
            if let entry = slots[(head + offset) % slots.count], now - entry.sentAt < window { envelopes.append(entry.envelope) }
        }
        return envelopes
    }

    private mutating func removeOldest() {
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
    }

    /// More slots (doubling, at most `limit`), the entries moved to the front in order.
    private mutating func grow(limit: Int) {
        let capacity = max(count + 1, min(limit, max(4, slots.count * 2)))
        var grown: [(envelope: Envelope, sentAt: Duration)?] = []
        grown.reserveCapacity(capacity)
        for offset in 0..<count { grown.append(slots[(head + offset) % slots.count]) }
        grown.append(contentsOf: repeatElement(nil, count: capacity - count))
        slots = grown
        head = 0
    }
}
