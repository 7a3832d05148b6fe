/// A mailbox store just opened, and whether a damaged file had to be moved aside first.
public struct MailboxOpenResult {
    /// The store.
    public let store: MailboxStore
    /// Where the damaged database went, and why, when it was moved aside (log it once).
    public let movedAside: (path: String, reason: MailboxDatabaseError)?
}
