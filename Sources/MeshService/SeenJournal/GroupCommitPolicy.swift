/// When the journal syncs: at once when deliveries wait and the last sync is at least
/// `minimumInterval` old, else when it will be; never while nothing waits. Pure, time injected.
public struct GroupCommitPolicy: Equatable, Sendable {
    /// The least time between two syncs (so at most `1 / minimumInterval` syncs a second).
    public var minimumInterval: Duration

    /// Creates a policy.
    public init(minimumInterval: Duration) {
        self.minimumInterval = minimumInterval
    }

    /// What to do now.
    public enum Decision: Equatable, Sendable {
        /// Nothing waits: no sync.
        case idle
        /// Sync now.
        case syncNow
        /// Sync at this time (a timer is armed for it).
        case syncAt(Duration)
    }

    /// The decision at `now`, given whether deliveries wait and when the last sync began.
    public func decide(waiting: Bool, lastSync: Duration?, now: Duration) -> Decision {
        guard waiting else { return .idle }
        guard let lastSync else { return .syncNow }
        let due = lastSync + minimumInterval
        return due <= now ? .syncNow : .syncAt(due)
    }
}
