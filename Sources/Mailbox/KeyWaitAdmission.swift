/// What became of a message offered to the key-wait queue.
public enum KeyWaitAdmission: Equatable, Sendable {
    /// It waits for its key.
    case held
    /// Refused; nothing changed.
    case refused(KeyWaitRefusal)
}

/// Why the key-wait queue refused a message (counter `outbox.<cause>`, docs/CONTROL.md).
public enum KeyWaitRefusal: String, CaseIterable, Equatable, Sendable {
    /// The target's count or bytes cap was reached.
    case targetCap = "refused_target_cap"
    /// The total count or bytes cap was reached.
    case totalCap = "refused_total_cap"
}
