/// What a transport knows about a link when it comes up.
public struct LinkInfo: Equatable, Sendable {
    /// The link's ID.
    public var id: LinkID
    /// Our role on the link.
    public var role: LinkRole
    /// The remote address (a BLE address or `host:port`); addresses rotate, so never an identity.
    public var remoteAddress: String
    /// The address link admission's per-address limit counts by: the BLE address, or a UDP link's
    /// remote host without its port (one LAN host can send from many ports). On loopback every
    /// local node shares the host, so there it is `host:port`. Defaults to `remoteAddress`.
    public var admissionAddress: String
    /// The largest frame the link carries in one write or notification, in bytes, within
    /// `LinkInfo.frameSizes`: on BLE the ATT MTU minus its 3-byte header, what CoreBluetooth
    /// calls `maximumWriteValueLength`. Frames are at most this long.
    public var mtu: Int
    /// Received signal strength in dBm, when the transport knows it.
    public var rssi: Int?
    /// False while the link runs at the smallest frame size only because its MTU exchange has
    /// not happened yet (a BLE connection's first moments): the engine then waits a moment
    /// (`EngineConfiguration.mtuExchangeWait`) for `TransportEvent.mtuChanged` before it splits
    /// its key exchange into 20-byte frames.
    public var mtuSettled: Bool
    /// True when the link delivers every frame it takes, in order, for as long as it is up (BLE:
    /// ATT writes and notifications); false when frames may vanish on a live link (UDP). On a
    /// lossless link the key exchange is not repeated on a timer, and two openings that cross
    /// pair up however long they took (PROTOCOL.md D4): a repeat would only queue behind the
    /// first on a slow radio and cross it.
    public var lossless: Bool

    /// The range of the largest frame a link may carry, the same on every transport: from 20
    /// bytes (the smallest ATT MTU, 23, minus its header) to 510 (the longest value BlueZ 5.66
    /// writes in one ATT write; docs/BLUEZ.md). A UDP link carries exactly what a GATT link would.
    public static let frameSizes: ClosedRange<Int> = 20...510

    /// Creates link information.
    public init(
        id: LinkID, role: LinkRole, remoteAddress: String, mtu: Int, rssi: Int? = nil, mtuSettled: Bool = true, lossless: Bool = false,
        admissionAddress: String? = nil
    ) {
        self.id = id
        self.role = role
        self.remoteAddress = remoteAddress
        self.admissionAddress = admissionAddress ?? remoteAddress
        self.mtu = mtu
        self.rssi = rssi
        self.mtuSettled = mtuSettled
        self.lossless = lossless
    }
}
