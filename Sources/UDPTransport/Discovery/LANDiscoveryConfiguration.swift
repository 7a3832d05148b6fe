import MeshLink

/// What a LAN transport announces and the rules by which it dials what it hears
/// (``LANDiscovery``; docs/PROTOCOL.md, "LAN discovery").
public struct LANDiscoveryConfiguration: Equatable, Sendable {
    /// The link-local multicast group announcements go to (224.0.0.254, host byte order).
    public static let group: UInt32 = 0xE000_00FE
    /// The UDP port of the group.
    public static let groupPort: UInt16 = 7100
    /// The default mesh service UUID's 16 bytes (`8f2c0001-5e1a-4c7b-9d3e-6d657368ee01`, BLUEZ.md).
    public static let defaultServiceUUID: [UInt8] = LANAnnouncement.uuidBytes("8f2c0001-5e1a-4c7b-9d3e-6d657368ee01")!

    /// This node's announcement (its service UUID, short ID and LAN port).
    public var announcement: LANAnnouncement
    /// This node's interface address (host byte order): announcements from it are our own.
    public var address: UInt32
    /// The interface's subnet: announcements from elsewhere are refused.
    public var subnet: IPv4Subnet
    /// The mean time between two announcements.
    public var announceInterval: Duration
    /// Each interval is drawn uniformly from `announceInterval` ± this fraction of it (0...0.5).
    public var jitter: Double
    /// The most announcers dialled or linked at once (the cap on LAN neighbours found by discovery).
    public var maxNeighbours: Int
    /// The most announcers remembered at once.
    public var maxAnnouncers: Int
    /// One announcement per source address is considered per this interval; the rest are dropped unread.
    public var sourceInterval: Duration
    /// A dial that has no link after this long fails.
    public var dialTimeout: Duration
    /// How long the announcer with the higher instance tag waits for the lower to dial before it dials.
    public var dialFallback: Duration
    /// A failed announcer is not dialled again for this long.
    public var failureHoldoff: Duration
    /// An announcer neither dialled nor linked is forgotten when silent this long.
    public var staleAfter: Duration

    /// Creates a configuration with the documented defaults.
    public init(
        announcement: LANAnnouncement, address: UInt32, subnet: IPv4Subnet, announceInterval: Duration = .seconds(5),
        jitter: Double = 0.25, maxNeighbours: Int = 16, maxAnnouncers: Int = 64, sourceInterval: Duration = .seconds(1),
        dialTimeout: Duration = .seconds(5), dialFallback: Duration = .seconds(10), failureHoldoff: Duration = .seconds(20), staleAfter: Duration = .seconds(20)
    ) {
        self.announcement = announcement
        self.address = address
        self.subnet = subnet
        self.announceInterval = announceInterval
        self.jitter = min(max(jitter, 0), 0.5)
        self.maxNeighbours = max(1, maxNeighbours)
        self.maxAnnouncers = max(1, maxAnnouncers)
        self.sourceInterval = sourceInterval
        self.dialTimeout = dialTimeout
        self.dialFallback = dialFallback
        self.failureHoldoff = failureHoldoff
        self.staleAfter = staleAfter
    }
}
