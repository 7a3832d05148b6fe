import MeshProtocol

/// A node beyond the neighbours.
public struct RemoteNodeReport: Codable, Equatable, Sendable {
    /// Its node ID, 32 hex digits.
    public var nodeID: String
    /// The first 8 hex digits.
    public var shortID: String
    /// Its display name, when a join notice carried its profile.
    public var name: String?
    /// Hops between it and us when last heard.
    public var hops: Int
    /// Seconds since it was last heard.
    public var lastHeardSecondsAgo: Double

    /// Creates a remote node report.
    public init(nodeID: NodeID, name: String?, hops: Int, lastHeardSecondsAgo: Double) {
        self.nodeID = nodeID.hex
        self.shortID = nodeID.shortID
        self.name = name
        self.hops = hops
        self.lastHeardSecondsAgo = lastHeardSecondsAgo
    }
}
