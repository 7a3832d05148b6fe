import MeshProtocol

/// Sends every relay immediately: classic RelayChat flooding.
public struct ImmediateRelayScheduler: RelayScheduler {
    private var pending: [ScheduledRelay] = []
    /// Plans scheduled (all sent at once).
    public private(set) var counters = RelaySchedulerCounters()

    /// Creates the scheduler.
    public init() {}

    /// Queues the plan as due now.
    public mutating func schedule(_ plan: RelayPlan, neighbours: Int, now: Duration) {
        counters.scheduled += 1
        pending.append(ScheduledRelay(plan: plan, dueAt: now))
    }

    /// Ignored: immediate flooding learns nothing from routes.
    public mutating func observe(_ envelope: Envelope, from neighbour: NodeID, now: Duration) {}

    /// Ignored: immediate flooding does not react to duplicates.
    public mutating func heard(_ copy: Envelope, from neighbour: NodeID, now: Duration) {}

    /// Everything queued.
    public mutating func due(now: Duration) -> [ScheduledRelay] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    /// Nothing is ever held past the call that scheduled it.
    public var nextDue: Duration? { pending.first?.dueAt }
}
