import MeshProtocol
import Testing
@testable import Flooding

private func messageID(_ value: UInt64) -> MessageID {
    try! MessageID(bytes: (0..<16).map { UInt8(truncatingIfNeeded: value >> (UInt64($0 % 8) * 8)) ^ UInt8($0 / 8) })
}

@Test("Capacity is a hard bound and the oldest ID goes first", arguments: [1, 2, 16, 1000])
func capacityBound(capacity: Int) {
    var cache = SeenCache(capacity: capacity, lifetime: .seconds(600))
    for value in 0..<UInt64(capacity * 3) {
        let inserted = cache.insert(messageID(value), now: .milliseconds(Int64(value)))
        #expect(inserted)
        #expect(cache.size <= capacity)
    }
    let newest = UInt64(capacity * 3 - 1)
    #expect(cache.contains(messageID(newest), now: .seconds(1)))
    #expect(!cache.contains(messageID(newest - UInt64(capacity)), now: .seconds(1)))
    #expect(cache.evictions == UInt64(capacity * 2))
}

@Test("Entries expire after their lifetime")
func expiry() {
    var cache = SeenCache(capacity: 10, lifetime: .seconds(10))
    cache.insert(messageID(1), now: .seconds(0))
    cache.insert(messageID(2), now: .seconds(5))
    let again = cache.insert(messageID(1), now: .seconds(9))
    #expect(!again)
    cache.expire(now: .seconds(10))
    #expect(cache.size == 1)
    #expect(!cache.contains(messageID(1), now: .seconds(10)))
    #expect(cache.contains(messageID(2), now: .seconds(10)))
    let afterExpiry = cache.insert(messageID(1), now: .seconds(12))
    #expect(afterExpiry)
}

@Test("Records come out oldest first and restore into an empty cache with their own expiry")
func recordsRoundTrip() {
    var cache = SeenCache(capacity: 8, lifetime: .seconds(100))
    for value in 0..<12 { cache.insert(messageID(UInt64(value)), now: .seconds(Int64(value))) }
    let records = cache.records(now: .seconds(20))
    #expect(records.map(\.messageID) == (4..<12).map { messageID(UInt64($0)) })
    var restored = SeenCache(capacity: 8, lifetime: .seconds(100))
    restored.restore(records, vouchedSince: cache.vouchedSince(now: .seconds(20)), now: .seconds(20))
    #expect(restored.size == 8)
    #expect(restored.contains(messageID(11), now: .seconds(110)))
    #expect(!restored.contains(messageID(4), now: .seconds(104)))
    #expect(restored.vouchedSince(now: .seconds(20)) == cache.vouchedSince(now: .seconds(20)))
}

@Test("Restoring skips expired records and keeps one that would outlive a fresh insert for one lifetime",
      arguments: [Duration.milliseconds(110_001), .milliseconds(110_999), .seconds(500)])
func restoreClampsOutOfRangeRecords(lateExpiry: Duration) {
    var cache = SeenCache(capacity: 8, lifetime: .seconds(100))
    cache.restore([
        .init(messageID: messageID(1), expiresAt: .seconds(5)),
        .init(messageID: messageID(2), expiresAt: .seconds(50)),
        .init(messageID: messageID(3), expiresAt: lateExpiry),
    ], vouchedSince: .zero, now: .seconds(10))
    #expect(cache.size == 2)
    #expect(!cache.contains(messageID(1), now: .seconds(10)))
    #expect(cache.contains(messageID(2), now: .seconds(10)))
    #expect(cache.contains(messageID(3), now: .milliseconds(109_999)))
    #expect(!cache.contains(messageID(3), now: .seconds(110)))
}

@Test("Newly inserted IDs are kept for a journal only when asked, each once, and taken once")
func newlyInserted() {
    var cache = SeenCache(capacity: 4, lifetime: .seconds(10))
    cache.insert(messageID(1), now: .zero)
    #expect(cache.takeNewlyInserted().isEmpty)
    cache.keepsNewlyInserted = true
    cache.insert(messageID(2), now: .seconds(1))
    cache.insert(messageID(2), now: .seconds(2))  // seen: not new
    cache.insert(messageID(1), now: .seconds(3))  // seen: not new
    cache.restore([SeenCache.Record(messageID: messageID(9), expiresAt: .seconds(12))], vouchedSince: .zero, now: .seconds(3))
    cache.insert(messageID(3), now: .seconds(4))
    #expect(cache.takeNewlyInserted() == [
        SeenCache.Record(messageID: messageID(2), expiresAt: .seconds(11)),
        SeenCache.Record(messageID: messageID(3), expiresAt: .seconds(14)),
    ])
    #expect(cache.takeNewlyInserted().isEmpty)
}
