import Testing
import Flooding

@Suite("Token bucket on injected time")
struct TokenBucketTests {
    @Test("A full bucket gives its burst at once, then one token per 1/rate seconds",
          arguments: [(rate: 20.0, burst: 100.0), (rate: 1, burst: 1), (rate: 400, burst: 800)])
    func burstThenRate(rate: Double, burst: Double) {
        var bucket = TokenBucket(rate: rate, burst: burst, now: .zero)
        var taken = 0
        while bucket.take(1, now: .zero) { taken += 1 }
        #expect(Double(taken) == burst)
        // Ten seconds later exactly ten seconds' worth has come back (capped at the burst).
        var later = 0
        while bucket.take(1, now: .seconds(10)) { later += 1 }
        #expect(Double(later) == min(burst, rate * 10))
    }

    @Test("A refused take spends nothing")
    func refusedTakeSpendsNothing() {
        var bucket = TokenBucket(rate: 1, burst: 10, now: .zero)
        let tooMany = bucket.take(11, now: .zero)
        #expect(!tooMany)
        #expect(bucket.available(now: .zero) == 10)
        let all = bucket.take(10, now: .zero)
        #expect(all)
    }

    @Test("A drain is a debt of at most one burst, paid back by the rate before anything is taken")
    func drainIsBoundedDebt() {
        var bucket = TokenBucket(rate: 2, burst: 10, now: .zero)
        bucket.drain(25, now: .zero)
        #expect(bucket.available(now: .zero) == -10)
        #expect(bucket.available(now: .seconds(5)) == 0)
        #expect(bucket.available(now: .seconds(6)) == 2)
    }

    @Test("Time going backwards adds nothing")
    func timeBackwards() {
        var bucket = TokenBucket(rate: 5, burst: 5, now: .seconds(10))
        let atStart = bucket.take(5, now: .seconds(10))
        #expect(atStart)
        let earlier = bucket.take(1, now: .seconds(3))
        #expect(!earlier)
    }
}
