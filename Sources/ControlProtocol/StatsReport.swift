import MeshProtocol

/// The `stats` result.
public struct StatsReport: Codable, Equatable, Sendable {
    /// Seconds since the daemon started.
    public var uptimeSeconds: Double
    /// Memory use.
    public var memory: MemoryReport
    /// Counters by group (`message`, `join`, `fragments`, `crypto`, `links`, `control`, …) and name.
    public var counters: [String: [String: UInt64]]

    /// Creates a stats report.
    public init(uptimeSeconds: Double, memory: MemoryReport, counters: [String: [String: UInt64]]) {
        self.uptimeSeconds = uptimeSeconds
        self.memory = memory
        self.counters = counters
    }
}
