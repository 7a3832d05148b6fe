import Dispatch
import MeshNode
import Synchronization

/// Keeps every message ID the seen cache takes in, in the ring file `seen.journal` of the state
/// directory, so that after `kill -9` or a power cut the node still drops what it saw
/// (docs/OPERATIONS.md, "Seen journal").
///
/// IDs are written (to the page cache, which survives the process) as they come. A delivery to
/// a local watcher waits until its ID is on the disk: syncs are grouped, at most one per
/// `policy.minimumInterval`, and there is none while nothing waits. All file work runs on the
/// journal's own queue, never on the engine's.
public final class SeenJournal: Sendable {
    struct State {
        var file: SeenJournalFile?
        var ring: SeenJournalRing
        /// Written since the last sync began.
        var dirty = false
        /// When the last sync began.
        var lastSync: Duration?
        var timerArmed = false
        /// What waits for the next sync, and since when.
        var waiting: [(action: @Sendable () -> Void, since: Duration)] = []
    }

    /// The file's path.
    public let path: String
    let policy: GroupCommitPolicy
    let logger: DaemonLogger
    let clock = ContinuousClock()
    let startedAt: ContinuousClock.Instant
    let confined: QueueConfined<State>
    let countersBox: Mutex<SeenJournalCounters>
    /// Appended, not yet written: one write for all of it, however many appends came meanwhile.
    /// At most `slotCount` (the ring would overwrite older ones anyway).
    let pending: Mutex<[SeenCacheSnapshot.Entry]>
    let slotCount: Int

    /// Opens (or creates) `seen.journal` in `directory` with `slotCount` slots and reads it back.
    /// `wallNow` and `lifetime` (ms) date what the replay vouches for.
    public static func open(
        directory: String, slotCount: Int, wallNow: UInt64, lifetime: UInt64,
        policy: GroupCommitPolicy = GroupCommitPolicy(minimumInterval: .milliseconds(250)), logger: DaemonLogger
    ) throws(SeenJournalError) -> (SeenJournal, SeenJournalReplay) {
        let path = directory + "/seen.journal"
        let (file, bytes) = try SeenJournalFile.open(path: path, slotCount: max(1, slotCount))
        let replay = SeenJournalReplay(bytes: bytes, slotCount: file.slotCount, wallNow: wallNow, lifetime: lifetime)
        let ring = SeenJournalRing(slotCount: file.slotCount, nextSlot: replay.nextSlot, nextSequence: replay.nextSequence)
        var counters = SeenJournalCounters()
        counters.replayedIDs = UInt64(replay.entries.count)
        counters.damagedSlots = UInt64(replay.damagedSlots)
        return (SeenJournal(path: path, file: file, ring: ring, counters: counters, policy: policy, logger: logger), replay)
    }

    init(path: String, file: SeenJournalFile, ring: SeenJournalRing, counters: SeenJournalCounters, policy: GroupCommitPolicy, logger: DaemonLogger) {
        self.path = path
        self.policy = policy
        self.logger = logger
        self.startedAt = clock.now
        self.confined = QueueConfined(State(file: file, ring: ring), queue: DispatchQueue(label: "meshnoded.seen-journal"))
        self.countersBox = Mutex(counters)
        self.pending = Mutex([])
        self.slotCount = ring.slotCount
    }

    /// The counters now (any thread).
    public var counters: SeenJournalCounters { countersBox.withLock { $0 } }

    /// Writes `entries` after what was given before (any thread; returns at once).
    public func append(_ entries: [SeenCacheSnapshot.Entry]) {
        guard !entries.isEmpty else { return }
        let first = pending.withLock { pending in
            let first = pending.isEmpty
            pending += entries
            if pending.count > slotCount { pending.removeFirst(pending.count - slotCount) }
            return first
        }
        if first { confined.queue.async { self.writePending() } }
    }

    /// Runs `action` on the journal's queue once everything appended before is on the disk.
    public func whenDurable(_ action: @escaping @Sendable () -> Void) {
        confined.queue.async {
            self.writePending()
            guard self.confined.value.dirty else { return action() }
            self.confined.value.waiting.append((action, self.now))
            self.countersBox.withLock { $0.deliveriesHeld += 1 }
            self.commit()
        }
    }

    /// Syncs what is written, runs what waits and closes the file; later appends are dropped.
    public func close() {
        confined.queue.sync {
            writePending()
            if confined.value.dirty { sync() }
            confined.value.file?.close()
            confined.value.file = nil
        }
    }

    private var now: Duration { clock.now - startedAt }

    private func writePending() {
        let entries = pending.withLock { pending in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        guard !entries.isEmpty, let file = confined.value.file else { return }
        for write in confined.value.ring.writes(for: entries) {
            do throws(SeenJournalError) {
                try file.write(write.bytes, at: write.offset)
                countersBox.withLock {
                    $0.writes += 1
                    $0.idsWritten += UInt64(write.bytes.count / SeenJournalSlot.size)
                }
            } catch {
                let first = countersBox.withLock { counters in
                    counters.writeErrors += 1
                    return counters.writeErrors == 1
                }
                if first { logger.warning(.general, "seen journal not written (counted in seen_journal.write_errors): \(error)") }
            }
        }
        confined.value.dirty = true
    }

    private func commit() {
        switch policy.decide(waiting: !confined.value.waiting.isEmpty, lastSync: confined.value.lastSync, now: now) {
        case .idle: break
        case .syncNow: sync()
        case .syncAt(let due):
            guard !confined.value.timerArmed else { return }
            confined.value.timerArmed = true
            let delay = due - now
            let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
            confined.queue.asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds))) {
                self.confined.value.timerArmed = false
                self.commit()
            }
        }
    }

    private func sync() {
        confined.value.lastSync = now
        confined.value.dirty = false
        if let file = confined.value.file {
            do throws(SeenJournalError) {
                try file.sync()
                countersBox.withLock { $0.syncs += 1 }
            } catch {
                let first = countersBox.withLock { counters in
                    counters.syncErrors += 1
                    return counters.syncErrors == 1
                }
                if first { logger.warning(.general, "seen journal not synced, deliveries reported anyway (seen_journal.sync_errors): \(error)") }
            }
        }
        let waiting = confined.value.waiting
        confined.value.waiting = []
        let done = now
        let held = waiting.reduce(Duration.zero) { $0 + (done - $1.since) }
        countersBox.withLock { $0.heldMicroseconds += UInt64(clamping: held.components.seconds * 1_000_000 + held.components.attoseconds / 1_000_000_000_000) }
        for entry in waiting { entry.action() }
    }
}
