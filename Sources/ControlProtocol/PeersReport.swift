import MeshProtocol

/// The `peers` result.
public struct PeersReport: Codable, Equatable, Sendable {
    /// Direct neighbours, by node ID.
    public var neighbours: [NeighbourReport]
    /// Nodes further away, nearest first.
    public var remote: [RemoteNodeReport]

    /// Creates a peers report.
    public init(neighbours: [NeighbourReport], remote: [RemoteNodeReport]) {
        self.neighbours = neighbours
        self.remote = remote
    }
}
