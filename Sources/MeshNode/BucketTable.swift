import Flooding

/// Token buckets by key, at most `capacity` of them, all with one rate and burst.
///
/// A bucket that has refilled to its burst is the same as a new one, so when the table is full
/// such buckets are forgotten first; when none is full the new key is refused (counted as over
/// budget by the caller), so a flood of fresh keys cannot displace the spent buckets of others.
struct BucketTable<Key: Hashable & Sendable>: Sendable {
    let rate: Double
    let burst: Double
    let capacity: Int
    private var buckets: [Key: TokenBucket] = [:]

    init(rate: Double, burst: Double, capacity: Int) {
        self.rate = rate
        self.burst = burst
        self.capacity = max(1, capacity)
    }

    /// Keys with a bucket on record.
    var count: Int { buckets.count }

    /// True when `key`'s bucket holds one token at `now` (nothing is taken).
    func allows(_ key: Key, now: Duration) -> Bool {
        guard let bucket = buckets[key] else { return buckets.count < capacity || hasFullBucket(now: now) }
        return bucket.available(now: now) >= 1
    }

    /// Takes one token from `key`'s bucket; false (and nothing taken) when there is none.
    mutating func take(_ key: Key, now: Duration) -> Bool {
        if buckets[key] == nil {
            if buckets.count >= capacity { buckets = buckets.filter { $0.value.available(now: now) < burst } }
            guard buckets.count < capacity else { return false }
            buckets[key] = TokenBucket(rate: rate, burst: burst, now: now)
        }
        return buckets[key]?.take(1, now: now) ?? false
    }

    private func hasFullBucket(now: Duration) -> Bool {
        buckets.values.contains { $0.available(now: now) >= burst }
    }
}
