import MeshProtocol

/// One link to a neighbour, as `peers` reports it.
public struct LinkReport: Codable, Equatable, Sendable {
    /// The transport's link number.
    public var linkID: UInt64
    /// `central` or `peripheral`: our role on the link.
    public var role: String
    /// The remote address (BLE address or `host:port`).
    public var address: String
    /// The link MTU in bytes.
    public var mtu: Int
    /// Signal strength in dBm, when known.
    public var rssi: Int?

    /// Creates a link report.
    public init(linkID: UInt64, role: String, address: String, mtu: Int, rssi: Int? = nil) {
        self.linkID = linkID
        self.role = role
        self.address = address
        self.mtu = mtu
        self.rssi = rssi
    }
}

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

    /// Creates a neighbour report.
    public init(nodeID: NodeID, profile: Profile?, links: [LinkReport], lastHeardSecondsAgo: Double) {
        self.nodeID = nodeID.hex
        self.shortID = nodeID.shortID
        self.name = profile?.displayName
        self.icon = profile?.icon
        self.role = profile?.role.description
        self.links = links
        self.lastHeardSecondsAgo = lastHeardSecondsAgo
    }
}

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

/// Process memory use.
public struct MemoryReport: Codable, Equatable, Sendable {
    /// Resident set size now (VmRSS), in bytes.
    public var residentBytes: UInt64
    /// Peak resident set size (VmHWM), in bytes.
    public var peakResidentBytes: UInt64

    /// Creates a memory report.
    public init(residentBytes: UInt64, peakResidentBytes: UInt64) {
        self.residentBytes = residentBytes
        self.peakResidentBytes = peakResidentBytes
    }
}

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
