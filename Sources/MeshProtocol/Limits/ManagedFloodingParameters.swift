/// The tunables of managed flooding (`ManagedRelayScheduler` in Flooding).
public struct ManagedFloodingParameters: Equatable, Sendable {
    /// How much the relay window grows per ready neighbour: a relay waits a random time in
    /// `0 ... slot × neighbours` (at most `maxWindow`), so dense places wait longer and hear more.
    public var slot: Duration
    /// The longest a relay is ever held.
    public var maxWindow: Duration
    /// Cancel a held relay once this many neighbours were heard relaying the same ID with at
    /// most our hops (0: never cancel, only drop targets heard sending it).
    public var cancelAfterCopies: Int
    /// Skip a target once this many relaying nodes are known linked to it (learned from routes):
    /// 1 trusts every link to deliver; 2 keeps a second copy for lossy links.
    public var coverage: Int
    /// Nodes with at most this many neighbours relay at once and never cancel (lines, rings).
    public var sparseNeighbours: Int
    /// The most relays held at once; beyond it relays go out at once (counted as `overflow`).
    public var maxPending: Int

    /// Creates parameters; the defaults are the ones docs/PERFORMANCE.md measured.
    public init(
        slot: Duration = .milliseconds(2), maxWindow: Duration = .milliseconds(40), cancelAfterCopies: Int = 0,
        coverage: Int = 1, sparseNeighbours: Int = 2, maxPending: Int = 256
    ) {
        self.coverage = max(1, coverage)
        self.slot = slot
        self.maxWindow = maxWindow
        self.cancelAfterCopies = cancelAfterCopies
        self.sparseNeighbours = sparseNeighbours
        self.maxPending = maxPending
    }
}
