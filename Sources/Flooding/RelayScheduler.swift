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

/// Decides when accepted relays go out.
///
/// The engine hands every relay plan to its scheduler and sends whatever `due(now:)`
/// returns. The default sends at once; a managed-flooding scheduler can hold plans back,
/// shrink their target lists when it hears neighbours relay the same ID (`heard`), or
/// cancel them, without any change to the relay rules.
public protocol RelayScheduler: Sendable {
    /// Accepts a relay plan decided at `now`.
    mutating func schedule(_ plan: RelayPlan, now: Duration)
    /// Notes that `neighbour` was heard sending `id` (a duplicate we dropped as seen).
    mutating func heard(_ id: MessageID, from neighbour: NodeID, now: Duration)
    /// Returns and removes every relay due at or before `now`, in due order.
    mutating func due(now: Duration) -> [ScheduledRelay]
}

/// Sends every relay immediately: classic RelayChat flooding.
public struct ImmediateRelayScheduler: RelayScheduler {
    private var pending: [ScheduledRelay] = []

    /// Creates the scheduler.
    public init() {}

    /// Queues the plan as due now.
    public mutating func schedule(_ plan: RelayPlan, now: Duration) {
        pending.append(ScheduledRelay(plan: plan, dueAt: now))
    }

    /// Ignored: immediate flooding does not react to duplicates.
    public mutating func heard(_ id: MessageID, from neighbour: NodeID, now: Duration) {}

    /// Everything queued.
    public mutating func due(now: Duration) -> [ScheduledRelay] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }
}
