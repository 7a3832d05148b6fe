/// A token bucket on injected time: `rate` tokens a second, at most `burst` saved up.
///
/// It starts full. `take` spends tokens only when all of them are there, so a caller that
/// is refused can try a smaller amount or give up; nothing is borrowed from the future.
public struct TokenBucket: Equatable, Sendable {
    /// Tokens added per second.
    public let rate: Double
    /// The most tokens the bucket holds.
    public let burst: Double
    /// Tokens available at `updatedAt`.
    public private(set) var tokens: Double
    /// When `tokens` was last brought up to date.
    public private(set) var updatedAt: Duration

    /// Creates a full bucket at `now`.
    public init(rate: Double, burst: Double, now: Duration) {
        self.rate = max(0, rate)
        self.burst = max(0, burst)
        self.tokens = self.burst
        self.updatedAt = now
    }

    /// Takes `amount` tokens if the bucket holds that many at `now`; returns whether it did.
    public mutating func take(_ amount: Double, now: Duration) -> Bool {
        refill(now: now)
        guard tokens >= amount else { return false }
        tokens -= amount
        return true
    }

    /// Takes `amount` tokens whether or not they are there: a penalty, paid back by the rate
    /// before anything else can be taken. The debt goes no deeper than one burst.
    public mutating func drain(_ amount: Double, now: Duration) {
        refill(now: now)
        tokens = max(-burst, tokens - amount)
    }

    /// The tokens available at `now`.
    public func available(now: Duration) -> Double {
        var copy = self
        copy.refill(now: now)
        return copy.tokens
    }

    private mutating func refill(now: Duration) {
        guard now > updatedAt else { return }
        // `components` divides a 128-bit count: take it once (the same value as before).
        let (seconds, attoseconds) = (now - updatedAt).components
        let elapsed = Double(seconds) + Double(attoseconds) / 1e18
        tokens = min(burst, tokens + elapsed * rate)
        updatedAt = now
    }
}
