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
