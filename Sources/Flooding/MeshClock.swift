import MeshProtocol

/// Mesh time learned from what neighbours sign, so a node whose own clock is wrong (a Pi with
/// no real-time clock and no network) still judges freshness and stamps what it sends.
///
/// Each neighbour has one vote: the offset `T - localWall` of the newest timestamp `T` it put
/// on an envelope of its own (hops 0, origin = the neighbour) that passed the link seal and, where
/// there is one, the signature check. The estimate is the median of the live votes, and it only
/// counts when at least ``MeshClockParameters/minimumVoters`` votes, and more than half of all,
/// lie within ``MeshClockParameters/agreement`` of that median. The first estimate is taken
/// as it is; after that the offset moves towards the median by at most
/// ``MeshClockParameters/slewPerSecond`` per second of the node's own monotonic time.
///
/// One lying neighbour keeps the estimate within `agreement` of the range of the honest
/// neighbours' readings: with two or more honest votes the median stays inside their range;
/// with one, the liar must agree with it within `agreement` of their mean. Before the first
/// estimate the node has none: ``accepts(_:timestamp:localWall:vouchedFor:now:)`` then takes a
/// timestamp that is fresh against its own clock or against any single neighbour's reading.
/// All times are injected; nothing here reads a clock.
public struct MeshClock: Sendable {
    /// One neighbour's reading.
    struct Vote: Sendable {
        var offset: Int64
        var heardAt: Duration
    }

    /// The rules.
    public let parameters: MeshClockParameters
    private var votes: [NodeID: Vote] = [:]
    /// Mesh time minus the local wall clock in milliseconds, or nil before the first estimate.
    public private(set) var offsetMilliseconds: Int64?
    private var lastStep: Duration = .zero
    private var lastReported: Int64 = 0

    /// Creates a clock with no estimate.
    public init(parameters: MeshClockParameters = MeshClockParameters()) {
        self.parameters = parameters
    }

    /// True once an estimate was set.
    public var isSynchronised: Bool { offsetMilliseconds != nil }

    /// Readings heard within the vote lifetime before `now`.
    public func voteCount(now: Duration) -> Int {
        votes.values.reduce(0) { $0 + (now - $1.heardAt < parameters.voteLifetime ? 1 : 0) }
    }

    /// Mesh time at local wall time `localWall` (both milliseconds since the Unix epoch): the
    /// local clock plus the estimate, or the local clock alone before there is one.
    public func meshTime(localWall: UInt64) -> UInt64 {
        UInt64(clamping: Int64(clamping: localWall) &+ (offsetMilliseconds ?? 0))
    }

    /// Records `voter`'s signed `timestamp`, heard at local wall time `localWall` and monotonic
    /// time `now`, and moves the estimate; returns what should be logged, if anything.
    public mutating func observe(_ voter: NodeID, timestamp: UInt64, localWall: UInt64, now: Duration) -> MeshClockChange? {
        // Rebuilt only when a vote has expired: the common case allocates nothing here.
        if votes.values.contains(where: { now - $0.heardAt >= parameters.voteLifetime }) {
            votes = votes.filter { now - $0.value.heardAt < parameters.voteLifetime }
        }
        if votes[voter] == nil, votes.count >= parameters.maxVoters,
            let oldest = votes.min(by: { $0.value.heardAt < $1.value.heardAt })?.key
        {
            votes[oldest] = nil
        }
        let offset = Int64(clamping: timestamp) &- Int64(clamping: localWall)
        votes[voter] = Vote(offset: min(max(offset, -Self.maxOffset), Self.maxOffset), heardAt: now)
        guard let target = agreedMedian() else { return nil }
        guard let current = offsetMilliseconds else {
            offsetMilliseconds = target
            lastStep = now
            lastReported = target
            return .synchronised(offsetMilliseconds: target, votes: votes.count)
        }
        let allowance = Self.milliseconds(parameters.slewPerSecond) &* max(0, Self.milliseconds(now - lastStep)) / 1000
        lastStep = now
        let moved = current &+ min(max(target &- current, -allowance), allowance)
        offsetMilliseconds = moved
        guard abs(moved - lastReported) >= Self.milliseconds(parameters.reportStep) else { return nil }
        defer { lastReported = moved }
        return .moved(fromMilliseconds: lastReported, toMilliseconds: moved, votes: votes.count)
    }

    /// True when an envelope stamped `timestamp` is fresh by `rule`: against mesh time once
    /// there is an estimate; before, against the local clock or any live neighbour's reading.
    public func accepts(_ rule: FreshnessRule, timestamp: UInt64, localWall: UInt64, vouchedFor: Duration, now: Duration) -> Bool {
        if rule.accepts(timestamp: timestamp, wallNow: meshTime(localWall: localWall), vouchedFor: vouchedFor) { return true }
        guard !isSynchronised else { return false }
        let wall = Int64(clamping: localWall)
        return votes.values.contains { vote in
            now - vote.heardAt < parameters.voteLifetime
                && rule.accepts(timestamp: timestamp, wallNow: UInt64(clamping: wall &+ vote.offset), vouchedFor: vouchedFor)
        }
    }

    /// The median of the votes when enough of them agree with it, else nil.
    private func agreedMedian() -> Int64? {
        let offsets = votes.values.map(\.offset).sorted()
        guard offsets.count >= parameters.minimumVoters else { return nil }
        let middle = offsets.count / 2
        // Offsets are clamped to ±2^50 ms, so these sums and differences cannot overflow.
        let median = offsets.count % 2 == 1 ? offsets[middle] : (offsets[middle - 1] + offsets[middle]) / 2
        let tolerance = Self.milliseconds(parameters.agreement)
        let agreeing = offsets.reduce(0) { $0 + (abs($1 - median) <= tolerance ? 1 : 0) }
        return agreeing >= parameters.minimumVoters && agreeing * 2 > offsets.count ? median : nil
    }

    /// The largest offset a vote may claim, about 35,000 years: keeps the arithmetic exact.
    static let maxOffset: Int64 = 1 << 50

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000
    }
}
