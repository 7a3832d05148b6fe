import MeshProtocol
import Testing
@testable import Flooding

@Suite("Direct-delivery memory: an old held message once, a replay never twice")
struct DirectDeliveryMemoryTests {
    let start: UInt64 = 1_767_225_600_000
    let hour: UInt64 = 3_600_000

    /// (age of the timestamp in hours at arrival, negative = ahead; accepted)
    @Test("Accepts within the 24 h horizon and after what it vouches for", arguments: [
        (age: 1.0, accepted: true),
        (age: 24.0, accepted: true),
        (age: 24.001, accepted: false),
        (age: -0.03, accepted: true),
        (age: -0.04, accepted: false),
    ])
    func window(age: Double, accepted: Bool) {
        let memory = DirectDeliveryMemory(vouchedSince: start - 48 * hour)
        let now = start
        let stamped = UInt64(Int64(now) - Int64((age * Double(hour)).rounded()))
        #expect(memory.accepts(timestamp: stamped, now: now) == accepted)
    }

    @Test("A memory that began at start-up refuses what was stamped before it (less the skew)")
    func vouchedFromStart() {
        let memory = DirectDeliveryMemory(vouchedSince: start)
        #expect(!memory.accepts(timestamp: start + 119_999, now: start + hour))
        #expect(memory.accepts(timestamp: start + 120_000, now: start + hour))
    }

    @Test("A memory begun under a clock two years ahead is lowered to mesh time, not kept: held mail is accepted again an hour later")
    func clockAheadAtCreation() {
        let twoYears = 2 * 365 * 24 * hour
        var memory = DirectDeliveryMemory(vouchedSince: start + twoYears)
        #expect(!memory.accepts(timestamp: start + 2 * hour, now: start + 3 * hour), "kept, it refuses for two years")
        memory.vouchAtMost(start)
        #expect(memory.vouchedSince == start)
        #expect(!memory.accepts(timestamp: start + 119_999, now: start + 3 * hour), "nothing from before it is vouched for")
        #expect(memory.accepts(timestamp: start + 2 * hour, now: start + 3 * hour))
        memory.vouchAtMost(start + 3 * hour)
        #expect(memory.vouchedSince == start, "a value already in the past is never raised")
    }

    @Test("A delivered ID is remembered until its timestamp plus horizon plus skew, then forgotten")
    func remembersUntilExpiry() {
        var memory = DirectDeliveryMemory(vouchedSince: 0)
        let id = try! MessageID(bytes: [UInt8](repeating: 7, count: 16))
        let expiry = memory.insert(id, timestamp: start, now: start + hour)
        #expect(expiry == start + 24 * hour + 120_000)
        #expect(memory.contains(id, now: expiry - 1))
        #expect(!memory.contains(id, now: expiry))
        #expect(!memory.accepts(timestamp: start, now: expiry), "by then no copy is accepted anyway")
    }

    @Test("Full, it forgets the ID expiring first and stops vouching for anything stamped before it")
    func earlyEviction() {
        var memory = DirectDeliveryMemory(capacity: 2, vouchedSince: 0)
        let ids = (0..<3).map { n in try! MessageID(bytes: [UInt8](repeating: UInt8(n + 1), count: 16)) }
        memory.insert(ids[0], timestamp: start, now: start)
        memory.insert(ids[1], timestamp: start + hour, now: start + hour)
        memory.insert(ids[2], timestamp: start + 2 * hour, now: start + 2 * hour)
        #expect(!memory.contains(ids[0], now: start + 2 * hour) && memory.evictions == 1)
        // The forgotten ID's copy is now refused as stale instead of delivered a second time.
        #expect(!memory.accepts(timestamp: start, now: start + 3 * hour))
        #expect(memory.accepts(timestamp: start + 120_000, now: start + 3 * hour))
    }

    @Test("Restored from the disk it drops expired records and keeps the rest")
    func restore() {
        var memory = DirectDeliveryMemory(vouchedSince: 0)
        let live = try! MessageID(bytes: [UInt8](repeating: 1, count: 16))
        let gone = try! MessageID(bytes: [UInt8](repeating: 2, count: 16))
        memory.restore([(live, start + hour), (gone, start)], now: start)
        #expect(memory.contains(live, now: start) && !memory.contains(gone, now: start) && memory.count == 1)
    }
}
