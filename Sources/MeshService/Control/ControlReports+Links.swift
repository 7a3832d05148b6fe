import ControlProtocol
import MeshLink
import MeshNode

extension LinkReport {
    /// Creates a report from what the transport named `transport` said about the link.
    public init(_ info: LinkInfo, transport: String) {
        self.init(linkID: info.id.number, role: info.role.rawValue, address: info.remoteAddress, mtu: info.mtu, rssi: info.rssi,
                  transport: transport)
    }
}

extension WatchEvent {
    /// A `link_up` event for a link the transport named `transport` reported up.
    public static func link(up info: LinkInfo, transport: String? = nil, time: Double = now()) -> WatchEvent {
        .linkUp(link: info.id.number, role: info.role.rawValue, address: info.remoteAddress, transport: transport, time: time)
    }

    /// A `link_down` event for a link of the transport named `transport`.
    public static func link(down link: LinkID, reason: String, transport: String? = nil, time: Double = now()) -> WatchEvent {
        .linkDown(link: link.number, reason: reason, transport: transport, time: time)
    }
}
