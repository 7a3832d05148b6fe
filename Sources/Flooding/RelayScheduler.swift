import MeshProtocol

/// Decides when accepted relays go out.
///
/// The engine hands every relay plan to its scheduler and sends whatever `due(now:)`
/// returns. The default sends at once; a managed-flooding scheduler can hold plans back,
/// shrink their target lists when it hears neighbours relay the same ID (`heard`), or
/// cancel them, without any change to the relay rules or to the bytes on the wire.
public protocol RelayScheduler: Sendable {
    /// Accepts a relay plan decided at `now`; `neighbours` is how many ready neighbours the node has.
    mutating func schedule(_ plan: RelayPlan, neighbours: Int, now: Duration)
    /// Notes every message or join notice `neighbour` sent us whose route fits it (first copies
    /// and duplicates alike), before any other rule: what the neighbour says about its own links.
    mutating func observe(_ envelope: Envelope, from neighbour: NodeID, now: Duration)
    /// Notes that `neighbour` was heard sending `copy` (a duplicate we dropped as seen, its route
    /// fitting the neighbour): the neighbour has the message.
    mutating func heard(_ copy: Envelope, from neighbour: NodeID, now: Duration)
    /// Returns and removes every relay due at or before `now`, in due order.
    mutating func due(now: Duration) -> [ScheduledRelay]
    /// The earliest time a held relay falls due, or nil when nothing is held.
    var nextDue: Duration? { get }
    /// What the scheduler did so far.
    var counters: RelaySchedulerCounters { get }
}
