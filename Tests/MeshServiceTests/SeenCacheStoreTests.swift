import Foundation
import MeshNode
import MeshProtocol
import Testing
@testable import MeshService

@Suite("The seen cache kept across a restart")
struct SeenCacheStoreTests {
    private static func snapshot(_ count: Int) -> SeenCacheSnapshot {
        SeenCacheSnapshot(vouchedSince: 1_767_225_000_000, entries: (0..<count).map { index in
            SeenCacheSnapshot.Entry(
                messageID: try! MessageID(bytes: [UInt8](repeating: 0x11, count: 12) + withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) }),
                expiresAt: 1_767_225_600_000 + UInt64(index))
        })
    }

    @Test("Save then take gives the same snapshot, and the file is gone after it", arguments: [0, 1, 500])
    func roundTrip(count: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seen-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SeenCacheStore(directory: directory, capacity: 1000)
        try store.save(Self.snapshot(count))
        #expect(try store.take() == Self.snapshot(count))
        #expect(try store.take() == nil)
    }

    @Test("Damaged files are refused with a typed error, never trusted", arguments: [
        "truncated", "bad magic", "count too large", "trailing byte",
    ])
    func damagedFiles(damage: String) {
        var bytes = SeenCacheStore.encode(Self.snapshot(3))
        switch damage {
        case "truncated": bytes.removeLast(5)
        case "bad magic": bytes[0] = 0x00
        case "count too large": bytes[19] = 0xFF
        default: bytes.append(0)
        }
        #expect(throws: SeenCacheStoreError.self) { try SeenCacheStore.decode(bytes, path: "f", capacity: 100) }
    }

    @Test("A file with more IDs than the cache holds is refused")
    func tooLarge() {
        let bytes = SeenCacheStore.encode(Self.snapshot(20))
        #expect(throws: SeenCacheStoreError.tooLarge(path: "f", count: 20, capacity: 10)) {
            try SeenCacheStore.decode(bytes, path: "f", capacity: 10)
        }
    }
}
