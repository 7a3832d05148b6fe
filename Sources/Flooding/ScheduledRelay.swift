import MeshProtocol

/// A relay waiting to go out: the seam where managed flooding can delay or cancel relays.
public struct ScheduledRelay: Equatable, Sendable {
    /// What to send and to whom.
    public var plan: RelayPlan
    /// When to send it.
    public var dueAt: Duration

    /// Creates a scheduled relay.
    public init(plan: RelayPlan, dueAt: Duration) {
        self.plan = plan
        self.dueAt = dueAt
    }
}
