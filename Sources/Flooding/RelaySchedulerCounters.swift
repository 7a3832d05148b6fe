/// What a relay scheduler did: relays planned, held back, cancelled and trimmed.
public struct RelaySchedulerCounters: Equatable, Sendable {
    /// Relay plans handed to the scheduler.
    public var scheduled: UInt64 = 0
    /// Plans held back for a random delay (the rest went out at once).
    public var delayed: UInt64 = 0
    /// Held plans dropped because enough neighbours were heard relaying the same ID.
    public var cancelled: UInt64 = 0
    /// Targets dropped from held plans because they were heard sending the ID themselves.
    public var targetsPruned: UInt64 = 0
    /// Plans sent at once, undelayed, because the scheduler already held its most.
    public var overflow: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
