import MeshNode

/// What a read of `seen.journal` found: the valid slots in write order and where writing goes on.
/// Pure: the caller reads the file, bounded to `slotCount` slots.
public struct SeenJournalReplay: Equatable, Sendable {
    /// The seen-cache entries of every valid slot, oldest write first.
    public var entries: [SeenCacheSnapshot.Entry]
    /// Slots neither empty nor valid: torn by a power cut or damaged.
    public var damagedSlots: Int
    /// The slot the next write goes to: the one after the newest.
    public var nextSlot: Int
    /// The sequence number of the next write.
    public var nextSequence: UInt64
    /// Since when (ms since the Unix epoch) the journal holds every ID it was given, when the
    /// ring turned over IDs that had not expired yet at `wallNow`; nil when it did not.
    public var vouchedSince: UInt64?

    /// Reads the slots of `bytes` (whole slots only; at most `slotCount`). `lifetime` is the seen
    /// cache's in milliseconds: a slot's ID was taken in `lifetime` before it expires.
    public init(bytes: [UInt8], slotCount: Int, wallNow: UInt64, lifetime: UInt64) {
        let slots = min(slotCount, bytes.count / SeenJournalSlot.size)
        var found: [(slot: Int, value: SeenJournalSlot)] = []
        var damaged = 0
        for index in 0..<slots {
            switch SeenJournalSlot.decode(bytes, at: index * SeenJournalSlot.size) {
            case .slot(let slot): found.append((index, slot))
            case .empty: break
            case .damaged: damaged += 1
            }
        }
        found.sort { $0.value.sequence < $1.value.sequence }
        entries = found.map(\.value.entry)
        damagedSlots = damaged
        if let newest = found.last {
            nextSlot = slotCount > 0 ? (newest.slot + 1) % slotCount : 0
            nextSequence = newest.value.sequence &+ 1
        } else {
            nextSlot = 0
            nextSequence = 1
        }
        // Every slot written at least once: the slot overwritten last held an ID taken in before
        // the oldest one left, and it is gone. Nothing taken in before the oldest is vouched for.
        if found.count + damaged >= slotCount, let oldest = found.first, oldest.value.entry.expiresAt > wallNow {
            vouchedSince = oldest.value.entry.expiresAt &- min(lifetime, oldest.value.entry.expiresAt)
        } else {
            vouchedSince = nil
        }
    }
}
