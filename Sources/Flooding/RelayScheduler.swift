import MeshProtocol

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
