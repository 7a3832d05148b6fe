import MeshProtocol

/// A direct neighbour.
public struct NeighbourReport: Codable, Equatable, Sendable {
    /// The neighbour's node ID, 32 hex digits.
    public var nodeID: String
    /// The first 8 hex digits.
    public var shortID: String
    /// Its display name, once its profile is verified.
    public var name: String?
    /// Its icon, once its profile is verified.
    public var icon: String?
    /// `person` or `relay`, once its profile is verified.
    public var role: String?
    /// Its live links.
    public var links: [LinkReport]
    /// Seconds since anything was heard from it.
    public var lastHeardSecondsAgo: Double
    /// `linked` while it has a link, `departing` while it has none and is kept for its departure
    /// grace (messages are held for it); absent from daemons older than the field.
    public var state: String?

    /// Creates a neighbour report.
    public init(nodeID: NodeID, profile: Profile?, links: [LinkReport], lastHeardSecondsAgo: Double, departing: Bool? = nil) {
        self.nodeID = nodeID.hex
        self.shortID = nodeID.shortID
        self.name = profile?.displayName
        self.icon = profile?.icon
        self.role = profile?.role.description
        self.links = links
        self.lastHeardSecondsAgo = lastHeardSecondsAgo
        self.state = departing.map { $0 ? "departing" : "linked" }
    }
}
