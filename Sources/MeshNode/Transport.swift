/// Identifies one link (one connection in one role) within a transport.
public struct LinkID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The transport-assigned number; never reused while the transport runs.
    public let rawValue: UInt64
    /// Creates a link ID.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    /// `link#N`, for logs.
    public var description: String { "link#\(rawValue)" }
    /// Orders by number.
    public static func < (lhs: LinkID, rhs: LinkID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Which GATT role this node plays on a link.
public enum LinkRole: String, Sendable, CaseIterable {
    /// We connected to the peer and write to its message characteristic.
    case central
    /// The peer connected to us; we notify it through our own characteristic.
    case peripheral
}

/// What a transport knows about a link when it comes up.
public struct LinkInfo: Equatable, Sendable {
    /// The link's ID.
    public var id: LinkID
    /// Our role on the link.
    public var role: LinkRole
    /// The remote address (a BLE address or `host:port`); addresses rotate, so never an identity.
    public var remoteAddress: String
    /// The largest frame the link carries in one write or notification, in bytes: on BLE
    /// the ATT MTU minus its 3-byte header (20...514), what CoreBluetooth calls
    /// `maximumWriteValueLength`. Frames are at most this long.
    public var mtu: Int
    /// Received signal strength in dBm, when the transport knows it.
    public var rssi: Int?

    /// Creates link information.
    public init(id: LinkID, role: LinkRole, remoteAddress: String, mtu: Int, rssi: Int? = nil) {
        self.id = id
        self.role = role
        self.remoteAddress = remoteAddress
        self.mtu = mtu
        self.rssi = rssi
    }
}

/// Something a transport reports to the node.
public enum TransportEvent: Sendable {
    /// A link came up and can carry frames.
    case linkUp(LinkInfo)
    /// A link went away.
    case linkDown(LinkID, reason: String)
    /// A link's frame size (see `LinkInfo.mtu`) changed; the next message is split for it.
    case mtuChanged(LinkID, mtu: Int)
    /// A link's signal strength was measured.
    case rssiChanged(LinkID, rssi: Int)
    /// A frame arrived on a link.
    case frameReceived(LinkID, [UInt8])
}

/// The result of handing one frame to a transport.
public enum SendOutcome: Sendable, Equatable {
    /// The transport took the frame.
    case sent
    /// The link's send queue is full; the frame was not taken.
    case full
    /// The link no longer exists.
    case gone
}

/// The boundary every radio or socket sits behind: BlueZ, loopback UDP and the simulator.
///
/// A transport reports links and frames through the handler given to `start`, and sends
/// frames of at most the link's MTU. It never interprets frame contents.
public protocol MeshTransport: AnyObject, Sendable {
    /// Starts the transport; events arrive on `handler`, one at a time, in order.
    func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws
    /// Sends one frame on a link.
    func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome
    /// Closes a link (for example after a handshake timeout).
    func disconnect(_ link: LinkID)
    /// Stops the transport and closes every link.
    func stop()
}
