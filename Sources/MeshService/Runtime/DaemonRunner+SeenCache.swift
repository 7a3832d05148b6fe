import MeshConfig
import MeshNode
import MeshProtocol

extension DaemonRunner {
    /// Fills the new engine's seen cache from what the last clean stop kept (`seen.cache`) and
    /// from the journal (`seen.journal`, which a crash or power cut leaves too), then opens the
    /// journal for this run and has the engine keep its new IDs for it. A damaged file is logged
    /// and skipped, slot by slot in the journal; a journal that cannot be opened leaves the node
    /// running without one (logged): it then forgets what it saw when it crashes.
    static func restoreSeenCache(from store: SeenCacheStore, config: DaemonSettings, into engine: MeshEngine, logger: DaemonLogger) -> SeenJournal? {
        var snapshot = SeenCacheSnapshot(vouchedSince: 0, entries: [])
        do throws(SeenCacheStoreError) {
            if let kept = try store.take() {
                snapshot = kept
                logger.info(.general, "kept \(kept.entries.count) seen message IDs across the restart")
            }
        } catch {
            logger.warning(.general, "kept seen cache ignored: \(error)")
        }
        let wallNow = wallClockMilliseconds()
        let lifetime = config.seen.expiryMilliseconds
        var journal: SeenJournal?
        do throws(SeenJournalError) {
            let (opened, replay) = try SeenJournal.open(
                directory: config.node.stateDirectory, slotCount: config.seen.capacity, wallNow: wallNow, lifetime: lifetime,
                logger: logger)
            journal = opened
            snapshot = merged(snapshot, replay, wallNow: wallNow, lifetime: lifetime)
            logger.info(.general, "seen journal \(opened.path): \(replay.entries.count) IDs read back")
            if replay.damagedSlots > 0 {
                logger.warning(.general, "seen journal \(opened.path): \(replay.damagedSlots) torn or damaged slot(s) skipped (seen_journal.damaged_slots)")
            }
            engine.keepNewlySeen()
        } catch {
            logger.warning(.general, "seen journal not kept, a crash will forget the seen cache: \(error)")
        }
        engine.restoreSeenCache(snapshot, now: .zero)
        return journal
    }

    /// The snapshot's entries and the journal's in one list by expiry, each ID once. A journal
    /// entry that would outlive a fresh insert (the clock went back across the crash) is kept
    /// for one lifetime.
    static func merged(_ snapshot: SeenCacheSnapshot, _ replay: SeenJournalReplay, wallNow: UInt64, lifetime: UInt64) -> SeenCacheSnapshot {
        let latest = wallNow &+ lifetime
        let journalled = replay.entries.map { SeenCacheSnapshot.Entry(messageID: $0.messageID, expiresAt: min($0.expiresAt, latest)) }
        let entries = (snapshot.entries + journalled).enumerated().sorted {
            ($0.element.expiresAt, $0.offset) < ($1.element.expiresAt, $1.offset)
        }.map(\.element)
        var ids = Set<MessageID>()
        let unique = entries.filter { ids.insert($0.messageID).inserted }
        return SeenCacheSnapshot(vouchedSince: max(snapshot.vouchedSince, replay.vouchedSince ?? 0), entries: unique)
    }
}
