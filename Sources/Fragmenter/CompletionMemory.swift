/// The transfer IDs one link completed within the last timeout, so late duplicates are ignored
/// instead of starting a new transfer (or delivering a one-frame message twice).
struct CompletionMemory: Sendable {
    private struct Entry: Sendable {
        let id: UInt32
        let time: Duration
    }

    /// The most IDs remembered; beyond it the oldest is forgotten.
    let capacity: Int
    private var times: [UInt32: Duration] = [:]
    private var order = FIFOQueue<Entry>()

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// True when `transferID` completed recently.
    func contains(_ transferID: UInt32) -> Bool { times[transferID] != nil }

    /// Remembers that `transferID` completed at `now`.
    mutating func remember(_ transferID: UInt32, now: Duration) {
        guard capacity > 0 else { return }
        while times.count >= capacity, let oldest = order.first { forget(oldest) }
        times[transferID] = now
        order.append(Entry(id: transferID, time: now))
    }

    /// Forgets IDs that completed at least `timeout` before `now`.
    mutating func expire(now: Duration, timeout: Duration) {
        while let oldest = order.first, now - oldest.time >= timeout { forget(oldest) }
    }

    private mutating func forget(_ entry: Entry) {
        order.removeFirst()
        if times[entry.id] == entry.time { times[entry.id] = nil }
    }
}
