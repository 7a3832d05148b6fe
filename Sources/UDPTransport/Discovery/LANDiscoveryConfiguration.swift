import MeshLink

/// What a LAN transport announces and the rules by which it dials what it hears
/// (``LANDiscovery``; docs/PROTOCOL.md, "LAN discovery").
public struct LANDiscoveryConfiguration: Equatable, Sendable {
    /// The link-local multicast group announcements go to (224.0.0.254, host byte order).
    public static let group: UInt32 = 0xE000_00FE
    /// The IPv6 group announcements go to: ff02::114, RFC 4727's experiment address at link-local scope.
    public static let groupV6 = IPv6Address(high: 0xFF02_0000_0000_0000, low: 0x114)
    /// The UDP port of both groups.
    public static let groupPort: UInt16 = 7100
    /// The hop limit IPv6 announcements are sent with and must arrive with: no router can have
    /// forwarded one that arrives with 255 (RFC 4861's on-link proof).
    public static let hopLimitV6 = 255
    /// The default mesh service UUID's 16 bytes (`8f2c0001-5e1a-4c7b-9d3e-6d657368ee01`, BLUEZ.md).
    public static let defaultServiceUUID: [UInt8] = LANAnnouncement.uuidBytes("8f2c0001-5e1a-4c7b-9d3e-6d657368ee01")!

    /// This node's announcement (its service UUID, short ID and LAN port).
    public var announcement: LANAnnouncement
    /// This node's IPv4 interface address (host byte order): announcements from it are our own;
    /// nil when the interface has none.
    public var address: UInt32?
    /// The interface's subnet: IPv4 announcements from elsewhere are refused.
    public var subnet: IPv4Subnet
    /// The interface's index: IPv6 announcements must come from a link-local address on it.
    public var interfaceIndex: UInt32
    /// This node's IPv6 link-local addresses: announcements from them are our own.
    public var linkLocal: [IPv6Address]
    /// Whether the IPv6 group could be joined on the interface (false where IPv6 is off).
    public var ipv6Group: Bool
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
        announcement: LANAnnouncement, address: UInt32?, subnet: IPv4Subnet, interfaceIndex: UInt32 = 0,
        linkLocal: [IPv6Address] = [], ipv6Group: Bool = false, announceInterval: Duration = .seconds(5),
        jitter: Double = 0.25, maxNeighbours: Int = 16, maxAnnouncers: Int = 64, sourceInterval: Duration = .seconds(1),
        dialTimeout: Duration = .seconds(5), dialFallback: Duration = .seconds(10), failureHoldoff: Duration = .seconds(20), staleAfter: Duration = .seconds(20)
    ) {
        self.announcement = announcement
        self.address = address
        self.subnet = subnet
        self.interfaceIndex = interfaceIndex
        self.linkLocal = linkLocal
        self.ipv6Group = ipv6Group
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

    /// The group this node announces to: the IPv6 one when the group is joined and the interface
    /// has a link-local address; else the IPv4 one when it has an IPv4 address; else none (not yet).
    /// One family, so a peer hears each node once and dials it once; it listens on both.
    public var announceGroup: AnnouncementSource? {
        if ipv6Group, !linkLocal.isEmpty, interfaceIndex != 0 { return .ipv6(Self.groupV6, scope: interfaceIndex) }
        return address == nil ? nil : .ipv4(Self.group)
    }

    /// Whether an announcement from `source` that arrived with TTL or hop limit `ttl` (nil: not
    /// reported) may be another node's on this link: IPv4 from the subnet, not our address,
    /// TTL 1; IPv6 from a link-local address on this interface, not ours, hop limit 255.
    public func accepts(_ source: AnnouncementSource, ttl: Int?) -> Bool {
        switch source {
        case .ipv4(let address):
            guard address != self.address, ttl == nil || ttl == 1,
                  let sender = UDPEndpoint(ipv4: address, port: 1, within: subnet) else { return false }
            return !sender.isLoopback
        case .ipv6(let address, let scope):
            return address.isLinkLocal && interfaceIndex != 0 && scope == interfaceIndex && !linkLocal.contains(address)
                && (ttl == nil || ttl == Self.hopLimitV6)
        }
    }

    /// The endpoint an announcer at `source` is dialled on; nil when it is no longer on this
    /// interface's link (its subnet changed).
    public func endpoint(_ source: AnnouncementSource, port: UInt16) -> UDPEndpoint? {
        switch source {
        case .ipv4(let address): UDPEndpoint(ipv4: address, port: port, within: subnet)
        case .ipv6(let address, let scope): UDPEndpoint(ipv6: address, scope: scope, port: port, linkLocalScope: interfaceIndex)
        }
    }
}
