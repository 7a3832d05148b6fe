/// What a mailbox did since the node started (group `mailbox` in `relayctl stats`).
public struct MailboxCounters: Equatable, Sendable {
    /// Messages taken in.
    public var deposited: UInt64 = 0
    /// Held messages the recipient's own link accepted (then removed).
    public var delivered: UInt64 = 0
    /// Copies sent toward a recipient heard some hops away (the mailbox kept its own).
    public var copiesSent: UInt64 = 0
    /// Messages refused or removed, by cause.
    public var drops: [MailboxDropCause: UInt64] = [:]
    /// Write transactions committed to the database.
    public var commits: UInt64 = 0
    /// Database operations that failed (each also logged).
    public var storeErrors: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}

    /// Counts one drop.
    public mutating func count(_ cause: MailboxDropCause) { drops[cause, default: 0] += 1 }

    /// The count for one cause.
    public subscript(cause: MailboxDropCause) -> UInt64 { drops[cause] ?? 0 }
}
