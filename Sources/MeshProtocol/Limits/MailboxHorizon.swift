/// The mailbox horizon, H of docs/PROTOCOL.md G4: how long after its timestamp a held direct
/// message may still be delivered (24 hours, fixed). A mailbox keeps a message at most this long
/// (`[mailbox] retention` is at most H, and H by default), and a recipient remembers what was
/// delivered to it this long plus the clock skew, so no copy from another mailbox is delivered twice.
public enum MailboxHorizon {
    /// H as a duration.
    public static let duration = Duration.seconds(24 * 3600)
    /// H in milliseconds, as mesh time counts.
    public static let milliseconds = UInt64(24 * 3600) * 1000
}
