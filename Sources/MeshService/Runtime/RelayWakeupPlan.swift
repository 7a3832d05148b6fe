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
    /// at a few hundred messages a second a frame arrives within it (docs/PROTOCOL.md, managed
    /// flooding; docs/PERFORMANCE.md, "The daemon: CPU per relayed message").
    public static let slack: Duration = .milliseconds(2)

    /// The plan. A deadline before the next due time would wake for nothing and one after
    /// `nextDue + slack` would be too late: both are replaced; one in between is kept.
    public static func decide(nextDue: Duration?, armed: Duration?, slack: Duration = slack) -> RelayWakeupPlan {
        guard let nextDue else { return armed == nil ? .keep : .disarm }
        let latest = nextDue + slack
        guard let armed, armed >= nextDue, armed <= latest else { return .arm(at: latest) }
        return .keep
    }
}
