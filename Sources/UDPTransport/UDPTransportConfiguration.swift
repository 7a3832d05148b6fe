import MeshLink

/// What a `UDPTransport` binds, whom it connects to, and its timings (its configuration, as
/// `BlueZConfiguration` is BlueZ's; the daemon's `[udp]` file section is `UDPSettings`).
public struct UDPTransportConfiguration: Equatable, Sendable {
    /// The loopback address to bind, or on the LAN the interface's (its IPv4 address, else a
    /// link-local one: the socket binds the wildcard address on the interface, this port); port 0
    /// picks a free port (see `UDPTransport.boundEndpoint`).
    public var bind: UDPEndpoint
    /// The interface the socket is bound to (`SO_BINDTODEVICE`), on the LAN; nil on loopback.
    public var device: String?
    /// The IPv4 sources whose datagrams are read; the rest count in `rejected_source`.
    public var sources: IPv4Subnet
    /// The interface index whose IPv6 link-local sources (fe80::/10) are read, on the LAN; nil: none.
    public var linkLocalScope: UInt32?
    /// The ports this node connects to as central.
    public var neighbours: [UDPEndpoint]
    /// The largest frame this node offers; a link uses the smaller of both ends (20...510).
    public var mtu: Int
    /// The fraction of frames dropped on send (0.0...1.0); keepalives are never dropped.
    public var loss: Double
    /// How often each side of a link sends a keepalive when it sent nothing else.
    public var keepaliveInterval: Duration
    /// How long a link may stay silent before it is declared down.
    public var linkTimeout: Duration
    /// How often a central retries a neighbour that has no link.
    public var connectInterval: Duration
    /// The most links at once, both roles together.
    public var maxLinks: Int
    /// Frames one link may deliver, checked before a frame leaves the read loop; frames over it
    /// are counted in `frames_over_budget` and dropped (PROTOCOL.md Part E, "Frames per link").
    public var frameBudget = FrameBudget.standard
    /// LAN discovery's announcement and rules, with a `device`; nil: no discovery.
    public var discovery: LANDiscoveryConfiguration?

    /// Creates a configuration; the defaults match `UDPSettings`.
    public init(
        bind: UDPEndpoint, neighbours: [UDPEndpoint] = [], mtu: Int = 185, loss: Double = 0,
        keepaliveInterval: Duration = .seconds(1), linkTimeout: Duration = .seconds(4),
        connectInterval: Duration = .seconds(1), maxLinks: Int = 64, device: String? = nil, sources: IPv4Subnet = .loopback,
        linkLocalScope: UInt32? = nil, discovery: LANDiscoveryConfiguration? = nil
    ) {
        self.bind = bind
        self.device = device
        self.sources = sources
        self.linkLocalScope = device == nil ? nil : linkLocalScope
        self.neighbours = neighbours
        self.mtu = min(max(mtu, UDPDatagram.minFrameSize), UDPDatagram.maxFrameSize)
        self.loss = min(max(loss, 0), 1)
        self.keepaliveInterval = keepaliveInterval
        self.linkTimeout = linkTimeout
        self.connectInterval = connectInterval
        self.maxLinks = max(1, maxLinks)
        self.discovery = device == nil ? nil : discovery
    }

    /// How often the transport's timer runs: half the shortest period, at least 5 ms.
    var tickInterval: Duration {
        max(.milliseconds(5), min(keepaliveInterval, connectInterval, linkTimeout) / 2)
    }
}
