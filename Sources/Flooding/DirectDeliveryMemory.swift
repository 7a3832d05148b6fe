import MeshProtocol

/// The recipient's memory of direct messages delivered to it (PROTOCOL.md Part G, "Old but genuine").
///
/// A held message reaches its recipient hours after it was stamped, long after the seen cache
/// forgot anything it could vouch for. This memory keeps the ID of every direct message
/// delivered to this node until its timestamp plus the mailbox horizon plus the clock skew,
/// when no copy of it can be accepted any more, so a second copy, from another mailbox or a
/// replay, is dropped as seen. When full it forgets the ID that expires first, and from then on
/// vouches only for messages stamped after that ID (`vouchedSince`): older ones are refused as
/// stale, never delivered twice. All times are mesh time, milliseconds since the Unix epoch.
public struct DirectDeliveryMemory: Sendable {
    /// The most IDs remembered.
    public let capacity: Int
    /// How long after its timestamp a held message may still be delivered (H, `MailboxHorizon`).
    public let horizonMilliseconds: UInt64
    /// The clock error tolerated (S, `[seen] max_clock_skew`).
    public let skewMilliseconds: UInt64
    /// No message stamped before this (less S) is vouched for.
    public private(set) var vouchedSince: UInt64
    /// IDs pushed out before their expiry because the memory was full.
    public private(set) var evictions: UInt64 = 0
    private var expiries: [MessageID: UInt64] = [:]

    /// Creates a memory that vouches from `vouchedSince` on.
    public init(capacity: Int = 16_384, horizonMilliseconds: UInt64 = MailboxHorizon.milliseconds, skewMilliseconds: UInt64 = 120_000, vouchedSince: UInt64) {
        self.capacity = max(1, capacity)
        self.horizonMilliseconds = horizonMilliseconds
        self.skewMilliseconds = skewMilliseconds
        self.vouchedSince = vouchedSince
    }

    /// IDs remembered.
    public var count: Int { expiries.count }

    /// When the ID of a message stamped `timestamp` may be forgotten.
    public func expiry(ofTimestamp timestamp: UInt64) -> UInt64 { timestamp &+ horizonMilliseconds &+ skewMilliseconds }

    /// True when `id` was delivered here and has not expired at `now`.
    public func contains(_ id: MessageID, now: UInt64) -> Bool { expiries[id].map { $0 > now } ?? false }

    /// True when a direct message for this node stamped `timestamp` is within the horizon and
    /// after what the memory vouches for:
    /// `T ≤ now + S` and `now − T ≤ H` and `T − S ≥ vouchedSince`.
    public func accepts(timestamp: UInt64, now: UInt64) -> Bool {
        withinHorizon(timestamp: timestamp, now: now) && timestamp >= vouchedSince &+ skewMilliseconds
    }

    /// Step 4 for a sealed direct message addressed to another node: `T ≤ now + S` and `now − T ≤ H`.
    public func withinHorizon(timestamp: UInt64, now: UInt64) -> Bool {
        guard timestamp <= now &+ skewMilliseconds else { return false }
        return timestamp >= now || now - timestamp <= horizonMilliseconds
    }

    /// Remembers a delivered message; returns its expiry (for the disk).
    @discardableResult
    public mutating func insert(_ id: MessageID, timestamp: UInt64, now: UInt64) -> UInt64 {
        let expiresAt = expiry(ofTimestamp: timestamp)
        if expiries[id] == nil, expiries.count >= capacity {
            removeExpired(now: now)
            if expiries.count >= capacity, let first = expiries.min(by: { $0.value < $1.value }) {
                expiries[first.key] = nil
                evictions += 1
                vouchedSince = max(vouchedSince, first.value &- horizonMilliseconds &- skewMilliseconds)
            }
        }
        expiries[id] = max(expiries[id] ?? 0, expiresAt)
        return expiresAt
    }

    /// Refills the memory from the disk at start-up (expired records are skipped).
    public mutating func restore(_ records: [(MessageID, UInt64)], now: UInt64) {
        for (id, expiresAt) in records where expiresAt > now {
            insert(id, timestamp: expiresAt &- horizonMilliseconds &- skewMilliseconds, now: now)
        }
    }

    /// Lowers `vouchedSince` to `now` when it lies after it: such a value was written by a clock
    /// that was ahead (a node whose first start had the wrong time), and kept, it would refuse
    /// every held message until that clock's time came. The memory is complete from `now` on, since
    /// every delivery is recorded, so vouching from there never lets a second copy through.
    public mutating func vouchAtMost(_ now: UInt64) {
        if vouchedSince > now { vouchedSince = now }
    }

    /// Forgets IDs past their expiry.
    public mutating func removeExpired(now: UInt64) {
        expiries = expiries.filter { $0.value > now }
    }
}
