import ControlProtocol
import MeshLink
import MeshNode

extension LinkReport {
    /// Creates a report from what the transport said about the link.
    public init(_ info: LinkInfo) {
        self.init(linkID: info.id.rawValue, role: info.role.rawValue, address: info.remoteAddress, mtu: info.mtu, rssi: info.rssi)
    }
}

extension WatchEvent {
    /// A link came up.
    public static func link(up info: LinkInfo, time: Double = now()) -> WatchEvent {
        var event = WatchEvent(type: linkUp, time: time)
        event.linkID = info.id.rawValue
        event.role = info.role.rawValue
        event.address = info.remoteAddress
        return event
    }

    /// A link went down.
    public static func link(down link: LinkID, reason: String, time: Double = now()) -> WatchEvent {
        var event = WatchEvent(type: linkDown, time: time)
        event.linkID = link.rawValue
        event.reason = reason
        return event
    }
}
