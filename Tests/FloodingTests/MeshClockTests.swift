import MeshProtocol
import Testing
@testable import Flooding

@Suite("Mesh time: a robust estimate from neighbours' signed timestamps, never one neighbour's word")
struct MeshClockTests {
    static let wall: UInt64 = 1_767_225_600_000
    static let day: Int64 = 86_400_000

    static func node(_ value: UInt8) -> NodeID { try! NodeID(bytes: [UInt8](repeating: value, count: 16)) }

    /// Feeds `voter` a reading `offset` ms from the local clock at monotonic second `second`.
    static func hear(_ clock: inout MeshClock, _ voter: UInt8, offset: Int64, at second: Int64) -> MeshClockChange? {
        let local = wall + UInt64(second * 1000)
        let stamped = offset == .min ? 0 : offset == .max ? UInt64.max : UInt64(Int64(local) + offset)
        return clock.observe(node(voter), timestamp: stamped, localWall: local, now: .seconds(second))
    }

    @Test("One neighbour, however often it speaks, sets no estimate; a second that agrees does")
    func twoNeighboursNeeded() {
        var clock = MeshClock()
        for second in 0..<10 { #expect(Self.hear(&clock, 1, offset: 3 * Self.day, at: Int64(second)) == nil) }
        #expect(!clock.isSynchronised)
        #expect(clock.meshTime(localWall: Self.wall) == Self.wall)
        let change = Self.hear(&clock, 2, offset: 3 * Self.day + 400, at: 10)
        #expect(change == .synchronised(offsetMilliseconds: 3 * Self.day + 200, votes: 2))
        #expect(clock.meshTime(localWall: Self.wall) == Self.wall + UInt64(3 * Self.day + 200))
        #expect(clock.voteCount(now: .seconds(10)) == 2)
    }

    @Test("Two neighbours that disagree by more than twice the agreement set nothing", arguments: [20_001, -20_001, 3 * 86_400_000])
    func disagreement(apart: Int64) {
        var clock = MeshClock()
        _ = Self.hear(&clock, 1, offset: 0, at: 0)
        #expect(Self.hear(&clock, 2, offset: apart, at: 1) == nil)
        #expect(!clock.isSynchronised)
    }

    /// One liar among `honest` neighbours whose readings lie within 0.5 s of +3 days.
    @Test("One lying neighbour moves the first estimate at most the agreement (10 s) past the honest readings",
          arguments: [1, 2, 3, 5] as [Int], [Int64.min, -2 * 365 * 86_400_000, -10_000, -9_999, 0, 9_999, 10_000, 20_000, 86_400_000, Int64.max] as [Int64])
    func liarBound(honest: Int, lie: Int64) {
        var clock = MeshClock()
        let base = 3 * Self.day
        _ = Self.hear(&clock, 99, offset: lie == Int64.min || lie == Int64.max ? lie : base + lie, at: 0)
        for index in 0..<honest { _ = Self.hear(&clock, UInt8(index + 1), offset: base + Int64(index) * 500 / Int64(max(1, honest - 1)), at: 1) }
        guard let offset = clock.offsetMilliseconds else {
            #expect(honest == 1)  // only one honest voter can fail to outvote a liar
            return
        }
        #expect(offset >= base - 10_000 && offset <= base + 500 + 10_000)
        guard honest >= 2 else { return }
        // With two or more honest readings the median lies within their range: 20 s later
        // (the estimate moves 1 s a second) the estimate is there, whatever the liar says.
        for index in 0..<honest { _ = Self.hear(&clock, UInt8(index + 1), offset: base + Int64(index) * 500 / Int64(honest - 1), at: 21) }
        _ = Self.hear(&clock, 99, offset: lie == Int64.min || lie == Int64.max ? lie : base + lie, at: 21)
        let settled = clock.offsetMilliseconds ?? 0
        #expect(settled >= base && settled <= base + 500)
    }

    @Test("After the first estimate a lying neighbour cannot move it; a real change moves at most 60 s a minute")
    func boundedSteps() {
        var clock = MeshClock()
        for voter: UInt8 in 1...3 { _ = Self.hear(&clock, voter, offset: 0, at: 0) }
        #expect(clock.offsetMilliseconds == 0)
        for second in stride(from: 10, through: 600, by: 10) { _ = Self.hear(&clock, 3, offset: 365 * Self.day, at: Int64(second)) }
        for voter: UInt8 in 1...2 { _ = Self.hear(&clock, voter, offset: 0, at: 600) }
        #expect(clock.offsetMilliseconds == 0)
        // Every neighbour now reads an hour ahead (they all corrected): the estimate follows at 1 s/s.
        var changes: [MeshClockChange] = []
        for second in stride(from: 610, through: 720, by: 10) {
            for voter: UInt8 in 1...3 { if let change = Self.hear(&clock, voter, offset: 3_600_000, at: Int64(second)) { changes.append(change) } }
        }
        #expect(clock.offsetMilliseconds == 120_000)
        #expect(changes == [
            .moved(fromMilliseconds: 0, toMilliseconds: 60_000, votes: 3),
            .moved(fromMilliseconds: 60_000, toMilliseconds: 120_000, votes: 3),
        ])
    }

    @Test("Before an estimate a timestamp is fresh against the local clock or any live neighbour's reading; a replay is not")
    func unsynchronisedFreshness() {
        let rule = FreshnessRule(maxClockSkew: .seconds(120))
        var clock = MeshClock()
        let local = Self.wall
        let ahead = UInt64(Int64(local) + 3 * Self.day)
        #expect(!clock.accepts(rule, timestamp: ahead, localWall: local, vouchedFor: .seconds(600), now: .zero))
        _ = clock.observe(Self.node(1), timestamp: ahead, localWall: local, now: .zero)
        #expect(clock.accepts(rule, timestamp: ahead + 1_000, localWall: local, vouchedFor: .seconds(600), now: .seconds(1)))
        #expect(clock.accepts(rule, timestamp: local - 60_000, localWall: local, vouchedFor: .seconds(600), now: .seconds(1)))
        // Eleven minutes old by that neighbour's reading and by ours: a replay past the cache.
        #expect(!clock.accepts(rule, timestamp: ahead - 660_000, localWall: local, vouchedFor: .seconds(600), now: .seconds(1)))
        // The reading expires with the vote.
        #expect(!clock.accepts(rule, timestamp: ahead, localWall: local, vouchedFor: .seconds(600), now: .seconds(600)))
    }

    @Test("Once synchronised only mesh time counts: the local clock's window no longer does")
    func synchronisedFreshness() {
        let rule = FreshnessRule(maxClockSkew: .seconds(120))
        var clock = MeshClock()
        for voter: UInt8 in 1...2 { _ = Self.hear(&clock, voter, offset: -2 * 365 * Self.day, at: 0) }
        let mesh = clock.meshTime(localWall: Self.wall)
        #expect(clock.accepts(rule, timestamp: mesh, localWall: Self.wall, vouchedFor: .seconds(600), now: .zero))
        #expect(!clock.accepts(rule, timestamp: Self.wall, localWall: Self.wall, vouchedFor: .seconds(600), now: .zero))
        #expect(!clock.accepts(rule, timestamp: mesh - 660_000, localWall: Self.wall, vouchedFor: .seconds(600), now: .zero))
    }

    @Test("Votes expire after 10 minutes and at most 64 neighbours are remembered")
    func bounded() {
        var clock = MeshClock()
        for voter in 0..<100 { _ = Self.hear(&clock, UInt8(voter), offset: Int64(voter) * 60_000, at: Int64(voter)) }
        #expect(clock.voteCount(now: .seconds(100)) == 64)
        #expect(clock.voteCount(now: .seconds(700)) == 0)
    }
}
