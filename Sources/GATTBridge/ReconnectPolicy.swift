/// Exponential backoff with jitter, as a pure function of the failure count and a random number.
public struct ReconnectPolicy: Equatable, Sendable {
    /// Delay after the first failure, in seconds.
    public var initialDelay: Double
    /// Growth per further failure.
    public var multiplier: Double
    /// Cap for the exponential part, in seconds.
    public var maxDelay: Double
    /// Jitter as a fraction of the delay: the result lies within ±jitter of the nominal value.
    public var jitter: Double
    /// Consecutive failures after which a device is put on the long wait.
    public var penaltyAfterFailures: Int
    /// The long wait, in seconds, for a device that fails repeatedly.
    public var penaltyDelay: Double

    /// Creates a policy; defaults follow 1 s, 2 s, 4 s ... capped at 30 s, ±20 %, and 120 s after 6 failures.
    public init(initialDelay: Double = 1, multiplier: Double = 2, maxDelay: Double = 30, jitter: Double = 0.2,
                penaltyAfterFailures: Int = 6, penaltyDelay: Double = 120) {
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.penaltyAfterFailures = penaltyAfterFailures
        self.penaltyDelay = penaltyDelay
    }

    /// The nominal delay (no jitter) after `failures` consecutive failures; 0 when there were none.
    public func nominalDelay(afterFailures failures: Int) -> Double {
        guard failures > 0 else { return 0 }
        if failures >= penaltyAfterFailures { return penaltyDelay }
        var delay = initialDelay
        for _ in 1..<failures {
            delay *= multiplier
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }

    /// The delay with jitter; `unit` is a random number in 0..<1 supplied by the caller.
    public func delay(afterFailures failures: Int, unit: Double) -> Double {
        let nominal = nominalDelay(afterFailures: failures)
        let clamped = min(max(unit, 0), 1)
        return max(0, nominal * (1 + jitter * (2 * clamped - 1)))
    }
}

/// Per-device retry bookkeeping: when each device may be tried again. Time is passed in.
public struct BackoffSchedule: Equatable, Sendable {
    /// One device's state.
    public struct Entry: Equatable, Sendable {
        /// Consecutive failures.
        public var failures: Int
        /// The earliest time (seconds, caller's clock) of the next attempt.
        public var notBefore: Double
    }

    /// The policy in force.
    public let policy: ReconnectPolicy
    /// Most devices tracked; the entry with the earliest `notBefore` is dropped beyond it.
    public let capacity: Int
    /// Entries by key (a device address).
    public private(set) var entries: [String: Entry] = [:]

    /// Creates an empty schedule.
    public init(policy: ReconnectPolicy, capacity: Int = 256) {
        self.policy = policy
        self.capacity = max(1, capacity)
    }

    /// Whether `key` may be tried at `now`.
    public func mayAttempt(_ key: String, now: Double) -> Bool {
        guard let entry = entries[key] else { return true }
        return now >= entry.notBefore
    }

    /// Records a failed attempt and returns the delay chosen.
    @discardableResult
    public mutating func recordFailure(_ key: String, now: Double, unit: Double) -> Double {
        let failures = (entries[key]?.failures ?? 0) + 1
        let delay = policy.delay(afterFailures: failures, unit: unit)
        entries[key] = Entry(failures: failures, notBefore: now + delay)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.notBefore < $1.value.notBefore })?.key {
            entries[oldest] = nil
        }
        return delay
    }

    /// Forgets a device's failures after a success.
    public mutating func recordSuccess(_ key: String) { entries[key] = nil }

    /// The earliest `notBefore` in the future, for arming a timer.
    public func nextWake(after now: Double) -> Double? {
        entries.values.map(\.notBefore).filter { $0 > now }.min()
    }
}
