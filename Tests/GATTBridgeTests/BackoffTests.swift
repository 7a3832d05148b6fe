import Testing
@testable import GATTBridge

/// Reconnect timing as pure values: no clocks, the caller passes time and randomness.
@Suite struct BackoffTests {
    let policy = ReconnectPolicy()

    @Test(arguments: [(0, 0.0), (1, 1), (2, 2), (3, 4), (4, 8), (5, 16), (6, 120), (40, 120)])
    func nominalDelaysDoubleThenPenalise(_ failures: Int, _ expected: Double) {
        #expect(policy.nominalDelay(afterFailures: failures) == expected)
    }

    @Test func capAppliesBeforeThePenalty() {
        let long = ReconnectPolicy(initialDelay: 5, multiplier: 3, maxDelay: 30, penaltyAfterFailures: 10)
        #expect(long.nominalDelay(afterFailures: 3) == 30)
        #expect(long.nominalDelay(afterFailures: 9) == 30)
        #expect(long.nominalDelay(afterFailures: 10) == 120)
    }

    @Test(arguments: [0.0, 0.25, 0.5, 0.75, 0.999_999, 1.0, -3, 7])
    func jitterStaysWithinTwentyPercent(_ unit: Double) {
        let delay = policy.delay(afterFailures: 3, unit: unit)
        #expect(delay >= 4 * 0.8 - 1e-9)
        #expect(delay <= 4 * 1.2 + 1e-9)
    }

    @Test func jitterEndsAndMiddle() {
        #expect(policy.delay(afterFailures: 2, unit: 0) == 2 * 0.8)
        #expect(policy.delay(afterFailures: 2, unit: 0.5) == 2)
        #expect(policy.delay(afterFailures: 2, unit: 1) == 2 * 1.2)
    }

    @Test func scheduleBlocksUntilNotBeforeAndResetsOnSuccess() {
        var schedule = BackoffSchedule(policy: policy)
        #expect(schedule.mayAttempt("A", now: 0))
        #expect(schedule.recordFailure("A", now: 100, unit: 0.5) == 1)
        #expect(!schedule.mayAttempt("A", now: 100.5))
        #expect(schedule.mayAttempt("A", now: 101))
        #expect(schedule.recordFailure("A", now: 101, unit: 0.5) == 2)
        #expect(schedule.nextWake(after: 101) == 103)
        #expect(schedule.mayAttempt("B", now: 101))
        schedule.recordSuccess("A")
        #expect(schedule.mayAttempt("A", now: 101))
        #expect(schedule.nextWake(after: 101) == nil)
    }

    @Test func repeatedFailuresWaitLonger() {
        var schedule = BackoffSchedule(policy: policy)
        var now = 0.0
        var delays: [Double] = []
        for _ in 0..<7 {
            let delay = schedule.recordFailure("flaky", now: now, unit: 0.5)
            delays.append(delay)
            now += delay
        }
        #expect(delays == [1, 2, 4, 8, 16, 120, 120])
        #expect(schedule.entries["flaky"]?.failures == 7)
    }

    @Test func capacityDropsTheEarliestEntry() {
        var schedule = BackoffSchedule(policy: policy, capacity: 2)
        schedule.recordFailure("old", now: 0, unit: 0.5)
        schedule.recordFailure("mid", now: 10, unit: 0.5)
        schedule.recordFailure("new", now: 20, unit: 0.5)
        #expect(schedule.entries.count == 2)
        #expect(schedule.entries["old"] == nil)
    }

    @Test func lowerAddressDialsFirst() {
        let low = "00:AA:01:00:00:00", high = "00:AA:01:01:00:01"
        for unit in [0.0, 0.5, 0.999] {
            let leader = ConnectionTieBreak.hold(own: low, peer: high, unit: unit, connectTimeout: 15)
            let follower = ConnectionTieBreak.hold(own: high, peer: low, unit: unit, connectTimeout: 15)
            #expect(leader <= ConnectionTieBreak.leaderWindow)
            #expect(follower >= ConnectionTieBreak.followerDelay(connectTimeout: 15))
            #expect(follower > leader + 2)
        }
        #expect(ConnectionTieBreak.hold(own: nil, peer: low, unit: 0, connectTimeout: 15)
                == ConnectionTieBreak.followerDelay(connectTimeout: 15))
    }

    /// The follower waits out the leader's whole Connect: both dialling at once left a connection
    /// without ATT for half a minute on the emulator.
    @Test(arguments: [1.0, 5, 15, 60])
    func followerWaitsOutTheLeadersConnect(_ connectTimeout: Double) {
        let low = "00:AA:01:00:00:00", high = "00:AA:01:01:00:01"
        let latestLeaderEnd = ConnectionTieBreak.hold(own: low, peer: high, unit: 1, connectTimeout: connectTimeout)
            + connectTimeout
        let earliestFollower = ConnectionTieBreak.hold(own: high, peer: low, unit: 0, connectTimeout: connectTimeout)
        #expect(earliestFollower >= latestLeaderEnd)
        #expect(ConnectionTieBreak.hold(own: high, peer: low, unit: 1, connectTimeout: connectTimeout)
                == earliestFollower + ConnectionTieBreak.followerJitter)
    }
}
