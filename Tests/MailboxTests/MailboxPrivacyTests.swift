import Foundation
import Glibc
import MeshProtocol
import Testing
@testable import Mailbox

/// Issue 33, items 2 and 11: a cancelled message's plain text leaves the database and its log,
/// and the database files are private whatever the umask.
@Suite("Mailbox privacy: cancelled text gone from disk, files 0600", .serialized)
struct MailboxPrivacyTests {
    private func temporaryPath() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mailbox-privacy-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent("mailbox.db").path
    }

    /// The database and its -wal together, as a thief of the SD card would read them.
    private func onDisk(_ path: String) -> Data {
        ["", "-wal"].reduce(into: Data()) { all, suffix in all += FileManager.default.contents(atPath: path + suffix) ?? Data() }
    }

    @Test func aCancelledMessageLeavesNoTextInTheDatabaseOrItsLog() throws {
        let path = temporaryPath()
        let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
        let secret = "the safe combination is 31-41-59"
        #expect(store.holdForKey(secret, messageID: message(1), target: node(0xc1), now: epoch) == .held)
        #expect(store.holdForKey("keep me", messageID: message(2), target: node(0xc1), now: epoch + 1) == .held)
        #expect(store.flush())
        #expect(onDisk(path).range(of: Data(secret.utf8)) != nil, "the text is on disk before the cancel")
        let cancelled = try #require(store.cancelWaiting(message(1)))
        #expect(cancelled.target == node(0xc1) && cancelled.size == secret.utf8.count)
        #expect(store.cancelWaiting(message(1)) == nil, "a second cancel finds nothing")
        #expect(store.keyWait.counters.cancelled == 1 && store.keyWait.counters.sent == 0)
        #expect(store.keyWait.waiting(for: node(0xc1)).map(\.messageID) == [message(2)])
        #expect(onDisk(path).range(of: Data(secret.utf8)) == nil, "the cancelled text is still in the file or the log")
        #expect(onDisk(path).range(of: Data("keep me".utf8)) != nil)
        let reopened = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
        #expect(Array(reopened.keyWait.entries.keys) == [message(2)])
    }

    @Test("mailbox.db, -wal and -shm are 0600 under umask 022, and an older 0644 file is tightened")
    func filesArePrivateWhateverTheUmask() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let path = temporaryPath()
        do {
            let store = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
            #expect(store.holdForKey("x", messageID: message(1), target: node(0xc1), now: epoch) == .held)
            #expect(store.flush())
            for suffix in ["", "-wal", "-shm"] {
                var info = stat()
                #expect(stat(path + suffix, &info) == 0, "\(suffix) exists")
                #expect(info.st_mode & 0o777 == 0o600, "mailbox.db\(suffix) is \(String(info.st_mode & 0o777, radix: 8))")
            }
        }
        for suffix in ["", "-wal", "-shm"] { chmod(path + suffix, 0o644) }
        _ = try MailboxStore.open(path: path, limits: MailboxLimits(), now: epoch).store
        for suffix in ["", "-wal", "-shm"] {
            var info = stat()
            if stat(path + suffix, &info) == 0 { #expect(info.st_mode & 0o777 == 0o600, "mailbox.db\(suffix) after reopening") }
        }
    }
}
