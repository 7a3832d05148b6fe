import GATTBridge
import UDPTransport

/// `[udp]` settings for the loopback UDP transport.
public struct UDPSettings: Equatable, Sendable {
    /// The loopback address to bind (127.0.0.0/8 or ::1).
    public var bind = "127.0.0.1"
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

    /// Creates the defaults.
    public init() {}
}

/// One entry of a BlueZ allow or deny list.
public enum PeerFilter: Hashable, Sendable, CustomStringConvertible {
    /// A BLE device address, uppercase `AA:BB:CC:DD:EE:FF`.
    case address(String)
    /// A node ID, lowercase 32 hex digits.
    case node(String)

    /// The entry as written in the configuration file.
    public var description: String {
        switch self {
        case .address(let text), .node(let text): text
        }
    }

    /// Parses a BLE address or a 32-hex-digit node ID.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) {
            self = .address(text.uppercased())
        } else if text.count == 32, text.allSatisfy(\.isHexDigit) {
            self = .node(text.lowercased())
        } else {
            return nil
        }
    }
}

/// `[bluez]` settings for the Bluetooth LE transport.
public struct BlueZSettings: Equatable, Sendable {
    /// The BlueZ adapter, such as `hci0`.
    public var adapter = "hci0"
    /// The mesh's GATT service UUID.
    public var serviceUUID = BlueZConfiguration.defaultServiceUUID
    /// When not empty, only these devices or nodes are linked.
    public var allow: [PeerFilter] = []
    /// These devices or nodes are never linked.
    public var deny: [PeerFilter] = []
    /// The most simultaneous BLE connections, both roles together.
    public var maxConnections = 8
    /// Whether to host the mesh GATT service and advertise (a node). `false` makes a client that
    /// only dials nodes, subscribes, and receives every frame as a notification (docs/BLUEZ.md).
    public var gattServer = true

    /// Creates the defaults.
    public init() {}
}
