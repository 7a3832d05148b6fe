import MeshProtocol

/// One link to a neighbour, as `peers` reports it.
public struct LinkReport: Codable, Equatable, Sendable {
    /// The link's number within its transport (two transports may each have a link 1).
    public var linkID: UInt64
    /// `central` or `peripheral`: our role on the link.
    public var role: String
    /// The remote address (BLE address or `host:port`).
    public var address: String
    /// The link MTU in bytes.
    public var mtu: Int
    /// Signal strength in dBm, when known.
    public var rssi: Int?
    /// The transport the link belongs to (`bluez`, `udp`, `lan`); absent from older daemons.
    public var transport: String?

    /// Creates a link report.
    public init(linkID: UInt64, role: String, address: String, mtu: Int, rssi: Int? = nil, transport: String? = nil) {
        self.linkID = linkID
        self.role = role
        self.address = address
        self.mtu = mtu
        self.rssi = rssi
        self.transport = transport
    }
}
