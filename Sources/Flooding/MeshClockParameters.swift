/// The fixed rules of ``MeshClock`` (docs/PROTOCOL.md Part C, "Mesh time").
public struct MeshClockParameters: Equatable, Sendable {
    /// Distinct neighbours whose readings must agree before the first estimate (and every later step).
    public var minimumVoters: Int
    /// How far a reading may lie from the median and still count as agreeing with it.
    public var agreement: Duration
    /// How much the estimate may move per second of the node's own (monotonic) time once set.
    public var slewPerSecond: Duration
    /// How long a neighbour's reading counts after it was last heard.
    public var voteLifetime: Duration
    /// The most neighbours remembered at once (the oldest reading goes first).
    public var maxVoters: Int
    /// How far the estimate must move from the last reported one before it is reported again.
    public var reportStep: Duration

    /// Creates the rules; the defaults are the protocol's.
    public init(
        minimumVoters: Int = 2, agreement: Duration = .seconds(10), slewPerSecond: Duration = .seconds(1),
        voteLifetime: Duration = .seconds(600), maxVoters: Int = 64, reportStep: Duration = .seconds(60)
    ) {
        self.minimumVoters = minimumVoters
        self.agreement = agreement
        self.slewPerSecond = slewPerSecond
        self.voteLifetime = voteLifetime
        self.maxVoters = maxVoters
        self.reportStep = reportStep
    }
}
