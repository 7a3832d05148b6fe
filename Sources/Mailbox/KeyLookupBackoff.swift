/// When a message waiting for a key asks the mesh again (docs/PROTOCOL.md H4, "Waiting for a
/// key"): 30 s after the lookup made at writing, then 1, 2, 4, 8, 16 and 32 minutes after each
/// further one, then every hour, until the retention ends.
public enum KeyLookupBackoff {
    /// The first wait, in milliseconds.
    public static let firstMilliseconds: UInt64 = 30_000
    /// The longest wait, in milliseconds.
    public static let longestMilliseconds: UInt64 = 3_600_000

    /// Milliseconds from lookup number `attempt` (1 = the one made at writing) to the next.
    public static func delay(afterAttempt attempt: Int) -> UInt64 {
        let doublings = max(0, min(attempt - 1, 20))
        return min(firstMilliseconds << UInt64(doublings), longestMilliseconds)
    }
}
