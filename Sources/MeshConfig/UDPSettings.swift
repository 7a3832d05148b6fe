import MeshLink

/// `[udp]` (or `[lan]`) settings for a loopback UDP transport.
public struct UDPSettings: Equatable, Sendable {
    /// The loopback address to bind (127.0.0.0/8 or ::1); unused with an `interface`.
    public var bind = "127.0.0.1"
    /// `[lan]` only: the network interface whose IPv4 address is bound and whose subnet alone is
    /// heard (empty: loopback, as `[udp]`).
    public var interface = ""
    /// `[lan]` only, with an `interface`: find peers by link-local multicast (docs/PROTOCOL.md,
    /// "LAN discovery") besides the configured ones.
    public var discovery = true
    /// The UDP port to bind.
    public var port: UInt16 = 7001
    /// The ports this node connects to as central (loopback only).
    public var neighbours: [UDPEndpoint] = []
    /// The largest frame this node offers on a link (20...510, `LinkInfo.frameSizes`); a link uses the smaller of both ends.
    public var mtu = 185
    /// The fraction of frames dropped on send, for tests (0.0...1.0).
    public var loss = 0.0
    /// How often each side of a link sends a keepalive.
    public var keepaliveInterval = Duration.seconds(1)
    /// How long a link may stay silent before it is declared down.
    public var linkTimeout = Duration.seconds(4)
    /// How often a central retries connecting to a neighbour.
    public var connectInterval = Duration.seconds(1)
    /// The most links at once, both roles together.
    public var maxLinks = 64

    /// Creates the defaults (those of `[udp]`).
    public init() {}

    /// The defaults of `[lan]`: those of `[udp]` on port 7101, so both can run at once.
    public static var lanDefaults: UDPSettings {
        var settings = UDPSettings()
        settings.port = 7101
        return settings
    }
}
