import MeshProtocol

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
