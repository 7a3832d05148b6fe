import MeshProtocol
import Testing
@testable import Flooding

@Suite("Freshness: signed timestamps against what the seen cache vouches for")
struct FreshnessRuleTests {
    /// (age of the timestamp in seconds, negative = ahead of our clock; vouched span; accepted)
    @Test("Accepts from skew ahead to (vouched - skew) behind, and nothing outside", arguments: [
        (age: 0.0, vouched: 600.0, accepted: true),
        (age: 480, vouched: 600, accepted: true),
        (age: 480.001, vouched: 600, accepted: false),
        (age: -120, vouched: 600, accepted: true),
        (age: -120.001, vouched: 600, accepted: false),
        (age: 41, vouched: 5, accepted: false),
        (age: 1, vouched: 5, accepted: false),
        (age: 1, vouched: 200, accepted: true),
    ])
    func window(age: Double, vouched: Double, accepted: Bool) {
        let rule = FreshnessRule(maxClockSkew: .seconds(120))
        let wallNow: UInt64 = 1_767_225_600_000
        let stamped = UInt64(Int64(wallNow) - Int64((age * 1000).rounded()))
        #expect(rule.accepts(timestamp: stamped, wallNow: wallNow, vouchedFor: .milliseconds(Int64(vouched * 1000))) == accepted)
    }

    @Test("Turned off, it accepts any timestamp")
    func disabled() {
        let rule = FreshnessRule(enabled: false)
        #expect(rule.accepts(timestamp: 0, wallNow: .max, vouchedFor: .zero))
        #expect(rule.accepts(timestamp: .max, wallNow: 0, vouchedFor: .zero))
    }

    @Test("The cache vouches for its lifetime until it must forget an ID early, then from that ID on")
    func vouchedSince() {
        var cache = SeenCache(capacity: 4, lifetime: .seconds(600))
        #expect(cache.vouchedSince(now: .seconds(100)) == .seconds(-500))
        for second in 0..<4 { cache.insert(testMessageID(UInt64(second)), now: .seconds(Int64(second))) }
        #expect(cache.lastEvictedInsertedAt == nil)
        cache.insert(testMessageID(10), now: .seconds(10))  // evicts the ID inserted at 0 s
        cache.insert(testMessageID(11), now: .seconds(11))  // evicts the one of 1 s
        #expect(cache.vouchedSince(now: .seconds(12)) == .seconds(1))
        // Once the lifetime has passed that point, the lifetime bounds it again.
        #expect(cache.vouchedSince(now: .seconds(700)) == .seconds(100))
    }
}

func testMessageID(_ value: UInt64) -> MessageID {
    try! MessageID(bytes: (0..<16).map { UInt8(truncatingIfNeeded: value >> (UInt64($0 % 8) * 8)) ^ UInt8($0 / 8) })
}
