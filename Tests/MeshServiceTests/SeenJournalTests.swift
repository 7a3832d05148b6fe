import Foundation
import MeshNode
import MeshProtocol
import Testing
@testable import MeshService

@Suite("seen.journal: slots, torn writes, the ring")
struct SeenJournalTests {
    static func id(_ index: Int) -> MessageID {
        try! MessageID(bytes: [UInt8](repeating: 0x5A, count: 12) + withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) })
    }

    static func entry(_ index: Int, expiresAt: UInt64 = 1_767_225_600_000) -> SeenCacheSnapshot.Entry {
        SeenCacheSnapshot.Entry(messageID: id(index), expiresAt: expiresAt + UInt64(index) * 1000)
    }

    /// The bytes of a ring of `slotCount` slots after writing `count` entries in batches of `batch`.
    static func ring(slotCount: Int, count: Int, batch: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: slotCount * SeenJournalSlot.size)
        var ring = SeenJournalRing(slotCount: slotCount, nextSlot: 0, nextSequence: 1)
        for start in stride(from: 0, to: count, by: batch) {
            for write in ring.writes(for: (start..<min(count, start + batch)).map { entry($0) }) {
                bytes.replaceSubrange(write.offset..<(write.offset + write.bytes.count), with: write.bytes)
            }
        }
        return bytes
    }

    @Test("A slot is 32 bytes and decodes to what was encoded", arguments: [0, 1, 999, 1000, 1_767_225_600_001])
    func slotRoundTrip(expiresAt: UInt64) {
        var bytes: [UInt8] = []
        let slot = SeenJournalSlot(Self.entry(7, expiresAt: expiresAt), sequence: 0x0102_0304_0506_0708)
        slot.encode(into: &bytes)
        #expect(bytes.count == SeenJournalSlot.size)
        #expect(SeenJournalSlot.decode(bytes, at: 0) == .slot(slot))
        // Expiry rounds up to whole seconds: never earlier than the cache's.
        #expect(slot.entry.expiresAt >= Self.entry(7, expiresAt: expiresAt).expiresAt)
        #expect(slot.entry.expiresAt - Self.entry(7, expiresAt: expiresAt).expiresAt < 1000)
    }

    @Test("Zeros are an empty slot; any flipped byte, or a torn tail, is a damaged one", arguments: Array(0..<32))
    func damagedSlot(flipped: Int) {
        var bytes: [UInt8] = []
        SeenJournalSlot(Self.entry(3), sequence: 42).encode(into: &bytes)
        #expect(SeenJournalSlot.decode([UInt8](repeating: 0, count: 32), at: 0) == .empty)
        var changed = bytes
        changed[flipped] ^= 0x01
        #expect(SeenJournalSlot.decode(changed, at: 0) == .damaged)
        // A write torn after `flipped` bytes: the new slot's head over the old slot's tail.
        var old: [UInt8] = []
        SeenJournalSlot(Self.entry(9), sequence: 7).encode(into: &old)
        let torn = Array(bytes[0..<flipped] + old[flipped...])
        let expected: SeenJournalSlot.Decoded = torn == old ? .slot(SeenJournalSlot(Self.entry(9), sequence: 7)) : .damaged
        #expect(SeenJournalSlot.decode(torn, at: 0) == expected)
    }

    @Test("The ring wraps, overwriting the oldest; a replay finds the newest and goes on after it",
          arguments: [(8, 5, 3), (8, 8, 3), (8, 13, 3), (8, 13, 1), (8, 40, 7), (1, 3, 2), (8, 20, 20)])
    func ringWraps(slotCount: Int, count: Int, batch: Int) {
        let bytes = Self.ring(slotCount: slotCount, count: count, batch: batch)
        let replay = SeenJournalReplay(bytes: bytes, slotCount: slotCount, wallNow: 0, lifetime: 600_000)
        let kept = Array((max(0, count - slotCount)..<count).map { Self.id($0) })
        #expect(replay.entries.map(\.messageID) == kept)
        #expect(replay.damagedSlots == 0)
        #expect(replay.nextSlot == count % slotCount)
        #expect(replay.nextSequence == UInt64(count) + 1)
    }

    @Test("A replay skips torn and damaged slots, counts them, and keeps every valid one")
    func replaySkipsDamage() {
        var bytes = Self.ring(slotCount: 8, count: 11, batch: 2)
        bytes[2 * 32 + 5] ^= 0xFF  // slot 2: entry 10, the newest
        bytes[5 * 32 + 31] ^= 0x01  // slot 5: entry 5
        let replay = SeenJournalReplay(bytes: bytes, slotCount: 8, wallNow: 0, lifetime: 600_000)
        #expect(replay.entries.map(\.messageID) == [3, 4, 6, 7, 8, 9].map { Self.id($0) })
        #expect(replay.damagedSlots == 2)
        #expect(replay.nextSlot == 2)  // after entry 9, over the torn slot
    }

    @Test("Short, empty or garbage files never crash a replay", arguments: [0, 1, 31, 33, 100, 4096])
    func garbage(length: Int) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let replay = SeenJournalReplay(bytes: bytes, slotCount: 64, wallNow: 0, lifetime: 600_000)
        #expect(replay.entries.count + replay.damagedSlots == min(length / 32, 64))
        #expect(replay.nextSlot < 64)
    }

    @Test("A ring that turned over live IDs vouches only from its oldest; one that did not, for nothing")
    func vouchedSince() {
        let full = Self.ring(slotCount: 8, count: 12, batch: 4)
        let oldest = Self.entry(4).expiresAt  // entries 4...11 are kept
        #expect(SeenJournalReplay(bytes: full, slotCount: 8, wallNow: oldest - 1, lifetime: 600_000).vouchedSince == oldest - 600_000)
        #expect(SeenJournalReplay(bytes: full, slotCount: 8, wallNow: oldest, lifetime: 600_000).vouchedSince == nil)
        let partial = Self.ring(slotCount: 8, count: 5, batch: 4)
        #expect(SeenJournalReplay(bytes: partial, slotCount: 8, wallNow: 0, lifetime: 600_000).vouchedSince == nil)
    }

    @Test("Syncs are grouped: at most one per interval, none while nothing waits")
    func groupCommit() {
        let policy = GroupCommitPolicy(minimumInterval: .milliseconds(250))
        #expect(policy.decide(waiting: false, lastSync: nil, now: .seconds(1)) == .idle)
        #expect(policy.decide(waiting: true, lastSync: nil, now: .seconds(1)) == .syncNow)
        #expect(policy.decide(waiting: true, lastSync: .milliseconds(900), now: .seconds(1)) == .syncAt(.milliseconds(1150)))
        #expect(policy.decide(waiting: true, lastSync: .milliseconds(750), now: .seconds(1)) == .syncNow)
    }

    @Test("The file keeps IDs across a reopen, is cut or grown to its slot count, and refuses a non-file")
    func fileRoundTrip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let logger = DaemonLogger(level: .error)
        let (journal, first) = try SeenJournal.open(directory: directory, slotCount: 16, wallNow: 0, lifetime: 600_000, logger: logger)
        #expect(first.entries.isEmpty)
        journal.append((0..<20).map { Self.entry($0) })
        let done = DispatchSemaphore(value: 0)
        journal.whenDurable { done.signal() }
        done.wait()
        #expect(journal.counters.idsWritten == 16 && journal.counters.syncs == 1 && journal.counters.deliveriesHeld == 1)
        journal.close()
        let path = directory + "/seen.journal"
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 16 * 32)
        let (again, second) = try SeenJournal.open(directory: directory, slotCount: 8, wallNow: 0, lifetime: 600_000, logger: logger)
        again.close()
        #expect(second.entries.map(\.messageID) == (4..<12).map { Self.id($0) })  // the first 8 slots: 20 appended at once keep the newest 16
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 8 * 32)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: SeenJournalError.self) {
            _ = try SeenJournal.open(directory: directory, slotCount: 8, wallNow: 0, lifetime: 600_000, logger: logger)
        }
    }
}

@Suite("seen.cache and seen.journal read back together")
struct SeenJournalMergeTests {
    @Test("Each ID once, by expiry; a journal expiry beyond one lifetime (the clock went back) is cut to it")
    func merge() {
        let now: UInt64 = 1_767_225_000_000
        let snapshot = SeenCacheSnapshot(vouchedSince: now - 500_000, entries: [
            SeenJournalTests.entry(1, expiresAt: now), SeenJournalTests.entry(2, expiresAt: now),
        ])
        var bytes: [UInt8] = []
        SeenJournalSlot(SeenJournalTests.entry(2, expiresAt: now), sequence: 1).encode(into: &bytes)
        SeenJournalSlot(SeenJournalTests.entry(0, expiresAt: now - 100_000), sequence: 2).encode(into: &bytes)
        SeenJournalSlot(SeenJournalTests.entry(3, expiresAt: now + 5_000_000), sequence: 3).encode(into: &bytes)
        let replay = SeenJournalReplay(bytes: bytes, slotCount: 3, wallNow: now, lifetime: 600_000)
        let merged = DaemonRunner.merged(snapshot, replay, wallNow: now, lifetime: 600_000)
        #expect(merged.entries.map(\.messageID) == [0, 1, 2, 3].map { SeenJournalTests.id($0) })
        #expect(merged.entries.last?.expiresAt == now + 600_000)
        // The ring is full and its oldest slot (entry 2, inserted at now + 2 s - 600 s) still
        // live: the journal vouches from then; the snapshot's later bound wins.
        #expect(replay.vouchedSince == now + 2_000 - 600_000)
        #expect(merged.vouchedSince == now - 500_000)
    }
}
