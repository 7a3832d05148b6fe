// Mailbox store costs (docs/PERFORMANCE.md, "Mailbox"): deposits per second and bytes written per
// held message (/proc/self/io write_bytes, which Linux counts when a page is dirtied) for a
// commit per message (one deposit per 250 ms tick, the worst case for wear) and for 64 deposits
// per commit (a burst), then hand-over bookkeeping of 100 held messages (read, remove, commit).
// Usage: swift run -c release --package-path Benchmarks mailboxbench [DIRECTORY]
import Foundation
import Mailbox
import MeshProtocol

func writeBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
        return Int(line.split(separator: " ").last ?? "0") ?? 0
    }
    return 0
}

func id(_ value: UInt64, _ salt: UInt8) -> [UInt8] { [salt] + [UInt8](repeating: 0, count: 7) + withUnsafeBytes(of: value.bigEndian) { Array($0) } }

let directory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : NSTemporaryDirectory()
let envelope = [UInt8](repeating: 0xab, count: 400)
let start: UInt64 = 1_767_225_600_000
print("mailboxbench: 400-byte envelopes, SQLite \(MailboxStore.sqliteVersion)")
for perCommit in [1, 64] {
    let path = directory + "/mailboxbench-\(perCommit)-\(getpid()).db"
    let store = try MailboxStore.open(path: path, limits: MailboxLimits(totalMessages: 100_000, totalBytes: 256 << 20,
        messagesPerRecipient: 100_000, bytesPerRecipient: 256 << 20, messagesPerOrigin: 100_000,
        messagesPerDepositor: 100_000, bytesPerDepositor: 256 << 20), now: start).store
    let count = perCommit == 1 ? 2_000 : 20_000
    let written = writeBytes()
    let clock = ContinuousClock.now
    for n in 0..<count {
        let recipient = try NodeID(bytes: id(UInt64(n % 50), 0xd0))
        _ = store.deposit(envelope, messageID: try MessageID(bytes: id(UInt64(n), 0x4d)), recipient: recipient,
                          origin: try NodeID(bytes: id(UInt64(n % 7), 0xa0)), depositor: try NodeID(bytes: id(UInt64(n % 3), 0xb0)),
                          timestamp: start, now: start + UInt64(n))
        if (n + 1) % perCommit == 0 { store.flush() }
    }
    store.flush()
    let elapsed = ContinuousClock.now - clock
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let bytes = writeBytes() - written
    print(String(format: "  %2d deposit(s) per commit: %7.0f deposits/s, %6.0f bytes written per held message, database %d KiB",
                 perCommit, Double(count) / seconds, Double(bytes) / Double(count), store.databaseBytes / 1024))
    if perCommit == 64 {
        let recipient = try NodeID(bytes: id(1, 0xd0))
        var handed = 0
        let handClock = ContinuousClock.now
        while handed < 100 {
            let batch = store.index.handOverBatch(for: recipient)
            for entry in batch where handed < 100 {
                _ = store.envelope(for: entry.messageID)
                store.handedOver(entry.messageID)
                handed += 1
            }
            store.flush()
        }
        let handElapsed = ContinuousClock.now - handClock
        print("  hand-over bookkeeping of 100 held messages (read, remove, commit per batch of 8): \(handElapsed)")
    }
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
}
