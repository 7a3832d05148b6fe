import MeshProtocol

/// The `watch` result, sent once before the events.
public struct WatchReport: Codable, Equatable, Sendable {
    /// Always true: events follow on this connection.
    public var watching: Bool

    /// Creates a watch report.
    public init() { watching = true }
}
