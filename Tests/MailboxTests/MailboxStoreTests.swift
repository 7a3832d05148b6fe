import Foundation
import MeshProtocol
import Testing
@testable import Mailbox

@Suite("Mailbox store: SQLite, batched commits, reopen, damaged files moved aside")
struct MailboxStoreTests {
    private func temporaryPath() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mailbox-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent("mailbox.db").path
    }

    private func deposit(_ store: MailboxStore, _ id: UInt64, bytes: [UInt8] = [1, 2, 3]) {
        _ = store.deposit(
            bytes, messageID: message(id), recipient: node(0xd1), origin: node(0xa1), depositor: node(0xb1),
            timestamp: epoch, now: epoch + id)
    }

    @Test("What was flushed is there after reopening, in deposit order, with its envelope")
    func reopen() throws {
        let path = temporaryPath()
        do {
            let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
            for id in 1...5 { deposit(store, UInt64(id), bytes: [UInt8(id), 0xee]) }
            #expect(store.envelope(for: message(3)) == [3, 0xee], "answered from memory before the flush")
            #expect(store.flush())
            store.handedOver(message(1))
            store.recordDelivered(message(77), expiresAt: epoch + 1_000)
            #expect(store.flush())
            #expect(store.index.counters.commits == 2)
        }
        let reopened = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch)
        #expect(reopened.movedAside == nil)
        let store = reopened.store
        #expect(store.index.count == 4)
        #expect(store.index.handOverBatch(for: node(0xd1)).map(\.messageID) == (2...5).map { message(UInt64($0)) })
        #expect(store.envelope(for: message(4)) == [4, 0xee])
        #expect(try store.deliveredRecords().map(\.0) == [message(77)])
        store.expire(now: epoch + 1_000)
        #expect(store.flush())
        #expect(try store.deliveredRecords().isEmpty)
    }

    @Test("The delivery memory's vouched_since, lowered or raised, is written once and read back after reopening")
    func memorySinceKept() throws {
        let path = temporaryPath()
        let since = epoch
        let created = epoch + 2 * 365 * 86_400_000  // the first start had a clock two years ahead
        do {
            let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: created).store
            #expect(store.memorySince == created)
            store.recordMemorySince(created)
            #expect(!store.hasPendingWrites, "an unchanged value is not written")
            store.recordMemorySince(since)
            #expect(store.memorySince == since)
            #expect(store.hasPendingWrites)
            #expect(store.flush())
            #expect(!store.hasPendingWrites)
        }
        let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch + 60_000).store
        #expect(store.memorySince == since, "opening again does not reset it to the time of opening")
        store.recordMemorySince(since + 1)
        #expect(store.flush())
        #expect(try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store.memorySince == since + 1)
    }

    @Test("Messages waiting for a key are on disk once flushed, text and order kept; sent ones are gone after reopening")
    func waitingForKeyReopen() throws {
        let path = temporaryPath()
        do {
            let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
            #expect(store.holdForKey("first", messageID: message(1), target: node(0xc1), now: epoch) == .held)
            #expect(store.holdForKey("second, ünïcode", messageID: message(2), target: node(0xc1), now: epoch + 1) == .held)
            #expect(store.holdForKey("other", messageID: message(3), target: node(0xc2), now: epoch + 2) == .held)
            #expect(store.waitingText(for: message(2)) == "second, ünïcode", "answered from memory before the flush")
            #expect(store.flush())
            store.sentAfterKey(message(3))
            #expect(store.flush())
        }
        let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
        #expect(store.keyWait.targets == [node(0xc1)])
        #expect(store.keyWait.waiting(for: node(0xc1)).map(\.messageID) == [message(1), message(2)])
        #expect(store.waitingText(for: message(2)) == "second, ünïcode")
        #expect(store.keyWait.lookupsDue(now: epoch) == [node(0xc1)])
        store.expire(now: epoch + MailboxLimits().retentionMilliseconds + 1)
        #expect(store.flush())
        #expect(try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store.keyWait.count == 0)
    }

    @Test("Reopened, held mail keeps its deposit order, not the order of its IDs")
    func reopenKeepsDepositOrder() throws {
        let path = temporaryPath()
        do {
            let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
            for id in (1...6).reversed() { deposit(store, UInt64(id)) }
            #expect(store.flush())
        }
        let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
        #expect(store.index.handOverBatch(for: node(0xd1)).map(\.messageID) == (1...6).reversed().map { message(UInt64($0)) })
        deposit(store, 7)
        #expect(store.index.handOverBatch(for: node(0xd1)).last?.messageID == message(7), "new mail goes after the restored")
    }

    @Test("Unflushed deposits are not on disk: the batch is the unit of durability")
    func unflushedIsNotWritten() throws {
        let path = temporaryPath()
        do {
            let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
            deposit(store, 1)
            #expect(store.flush())
            deposit(store, 2)
        }
        let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
        #expect(store.index.count == 1)
    }

    @Test("A garbage or truncated file is moved aside and the store starts empty", arguments: ["garbage", "truncated"])
    func damaged(kind: String) throws {
        let path = temporaryPath()
        do {
            let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
            for id in 1...200 { deposit(store, UInt64(id), bytes: [UInt8](repeating: 7, count: 2_000)) }
            #expect(store.flush())
            // Checkpoint so the main file holds the pages.
        }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        if kind == "garbage" {
            try handle.write(contentsOf: Data(repeating: 0x5a, count: 4_096))
        } else {
            try handle.truncate(atOffset: 5_000)
        }
        try handle.close()
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        let result = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch)
        #expect(result.movedAside?.path == "\(path).damaged-\(epoch)")
        #expect(FileManager.default.fileExists(atPath: "\(path).damaged-\(epoch)"))
        #expect(result.store.index.count == 0)
        deposit(result.store, 1)
        #expect(result.store.flush())
    }
}
