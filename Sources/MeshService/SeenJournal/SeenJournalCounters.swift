/// The journal's counters (`stats` group `seen_journal`, docs/CONTROL.md).
public struct SeenJournalCounters: Equatable, Sendable {
    /// Message IDs written to the journal.
    public var idsWritten: UInt64 = 0
    /// `pwrite` calls (a batch of IDs each, two when it wraps).
    public var writes: UInt64 = 0
    /// `fdatasync` calls.
    public var syncs: UInt64 = 0
    /// Deliveries held back until their ID was synced, then reported.
    public var deliveriesHeld: UInt64 = 0
    /// Microseconds those deliveries waited in all (the latency the journal adds, summed).
    public var heldMicroseconds: UInt64 = 0
    /// Writes that failed (the IDs are still in the seen cache, not in the file).
    public var writeErrors: UInt64 = 0
    /// Syncs that failed (the deliveries waiting were reported anyway).
    public var syncErrors: UInt64 = 0
    /// IDs read back from the journal at start.
    public var replayedIDs: UInt64 = 0
    /// Slots found torn or damaged at start, and skipped.
    public var damagedSlots: UInt64 = 0

    /// No counts yet.
    public init() {}
}
