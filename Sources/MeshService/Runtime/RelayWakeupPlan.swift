/// When the runtime's relay wake-up should fire, given the engine's earliest held relay and the
/// deadline armed now: at most `slack` after the relay falls due, so that the engine's next
/// turn (a frame arriving, a tick) sends it with no wake-up of its own when one comes first,
/// and one wake-up sends every relay due by then.
public enum RelayWakeupPlan: Equatable, Sendable {
    /// The armed deadline stays.
    case keep
    /// Arm (or re-arm) for this engine time.
    case arm(at: Duration)
    /// Nothing is held: clear the armed deadline, so the timer fires no more.
    case disarm

    /// How late a held relay may go out after its due time, waiting for the engine's next turn:
    /// on a node that takes in 250 frames a second or more a frame usually arrives within it
    /// (docs/PROTOCOL.md, managed flooding; docs/PERFORMANCE.md, "The daemon: CPU per relayed message").
    public static let slack: Duration = .milliseconds(4)

    /// The plan: the deadline is always `nextDue + slack`. One armed earlier would wake for a relay
    /// the engine may still send on its own at an arrival (or for nothing, once it has); so after
    /// every turn the deadline moves with the earliest relay still held (re-arming is one system
    /// call and wakes nobody).
    public static func decide(nextDue: Duration?, armed: Duration?, slack: Duration = slack) -> RelayWakeupPlan {
        guard let nextDue else { return armed == nil ? .keep : .disarm }
        let deadline = nextDue + slack
        return armed == deadline ? .keep : .arm(at: deadline)
    }
}
