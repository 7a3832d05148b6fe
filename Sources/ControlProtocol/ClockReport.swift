/// The `status` result's `clock`: what the node knows of mesh time (PROTOCOL.md Part C, "Mesh time").
public struct ClockReport: Codable, Equatable, Sendable {
    /// True once at least two neighbours agreed on a mesh time.
    public var synchronised: Bool
    /// Mesh time minus this node's wall clock in milliseconds (positive: this clock is behind); 0 before it is synchronised.
    public var offsetMilliseconds: Int64
    /// Neighbours whose reading counts now (heard in the last 10 minutes).
    public var votes: Int

    /// Creates a clock report.
    public init(synchronised: Bool, offsetMilliseconds: Int64, votes: Int) {
        self.synchronised = synchronised
        self.offsetMilliseconds = offsetMilliseconds
        self.votes = votes
    }
}
