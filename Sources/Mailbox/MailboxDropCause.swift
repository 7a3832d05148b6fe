/// Why a mailbox refused or let go of a message (counter `mailbox.<cause>`, docs/CONTROL.md).
public enum MailboxDropCause: String, CaseIterable, Equatable, Sendable {
    /// Refused: the envelope is larger than `maxMessageBytes`.
    case refusedTooLarge = "refused_too_large"
    /// Refused: the same message ID is already held.
    case refusedDuplicate = "refused_duplicate"
    /// Refused: it was stamped longer ago than the retention.
    case refusedExpired = "refused_expired"
    /// Evicted: the recipient's count or bytes cap was reached (its own oldest went).
    case evictedRecipientCap = "evicted_recipient_cap"
    /// Evicted: the origin's count cap was reached (its own oldest went).
    case evictedOriginCap = "evicted_origin_cap"
    /// Evicted: the depositor's count or bytes cap was reached (its own oldest went).
    case evictedDepositorCap = "evicted_depositor_cap"
    /// Evicted: the total cap was reached (the oldest of the depositor holding most bytes went).
    case evictedTotalCap = "evicted_total_cap"
    /// Removed: held for longer than the retention.
    case expired = "expired"
}
