import MeshNode

/// Where the journal's next slots go: a ring of `slotCount` slots, overwriting the oldest. Pure:
/// it turns a batch of entries into the writes for it (one, or two when the batch wraps).
public struct SeenJournalRing: Equatable, Sendable {
    /// One write: bytes at a byte offset of the file.
    public struct Write: Equatable, Sendable {
        /// The byte offset.
        public var offset: Int
        /// Whole slots.
        public var bytes: [UInt8]
    }

    /// Slots in the file.
    public let slotCount: Int
    /// The slot the next entry goes to.
    public private(set) var nextSlot: Int
    /// The next entry's sequence number.
    public private(set) var nextSequence: UInt64

    /// A ring that goes on where a replay left it.
    public init(slotCount: Int, nextSlot: Int, nextSequence: UInt64) {
        self.slotCount = max(1, slotCount)
        self.nextSlot = min(max(0, nextSlot), self.slotCount - 1)
        self.nextSequence = max(1, nextSequence)
    }

    /// The writes for `entries`, in order; at most the newest `slotCount` of them are kept, in
    /// the slots and with the sequence numbers they would have had after the others.
    public mutating func writes(for entries: [SeenCacheSnapshot.Entry]) -> [Write] {
        let skipped = max(0, entries.count - slotCount)
        nextSlot = (nextSlot + skipped) % slotCount
        nextSequence &+= UInt64(skipped)
        var writes: [Write] = []
        var current = Write(offset: nextSlot * SeenJournalSlot.size, bytes: [])
        for entry in entries.suffix(slotCount) {
            if nextSlot == 0 && !current.bytes.isEmpty {
                writes.append(current)
                current = Write(offset: 0, bytes: [])
            }
            SeenJournalSlot(entry, sequence: nextSequence).encode(into: &current.bytes)
            nextSequence &+= 1
            nextSlot = (nextSlot + 1) % slotCount
        }
        if !current.bytes.isEmpty { writes.append(current) }
        return writes
    }
}
