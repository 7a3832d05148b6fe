import Glibc
import MeshProtocol

/// One event streamed to `watch` clients as `{"event": {...}}` (docs/CONTROL.md, "Watching"):
/// one case per event type on the wire, each with the fields that type carries. `time` is
/// seconds since the Unix epoch; node and message IDs are 32 hex digits on the wire.
public enum WatchEvent: Equatable, Sendable {
    /// `message`: a chat message delivered to this node; `to` only on direct messages, `hops`
    /// the relays that carried it.
    case message(id: MessageID, from: NodeID, to: NodeID?, hops: Int, text: String, time: Double = WatchEvent.now())
    /// `peer_joined`: a neighbour's profile was verified (the wire type keeps the older word `peer`).
    case neighbourJoined(node: NodeID, name: String?, time: Double = WatchEvent.now())
    /// `peer_left`: a neighbour departed.
    case neighbourLeft(node: NodeID, name: String?, reason: String?, time: Double = WatchEvent.now())
    /// `link_up`: a link came up; `role` is `central` or `peripheral`; `transport` the one the link
    /// uses (nil from older daemons), within which `link` is its number.
    case linkUp(link: UInt64, role: String, address: String, transport: String? = nil, time: Double = WatchEvent.now())
    /// `link_down`: a link went down.
    case linkDown(link: UInt64, reason: String, transport: String? = nil, time: Double = WatchEvent.now())
    /// An event type this version does not know (from a newer daemon): shown by its type alone.
    case unknown(type: String, time: Double)

    /// The wall clock now, in seconds since the Unix epoch.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The `type` on the wire.
    public var type: String {
        switch self {
        case .message: WatchEventType.message.rawValue
        case .neighbourJoined: WatchEventType.neighbourJoined.rawValue
        case .neighbourLeft: WatchEventType.neighbourLeft.rawValue
        case .linkUp: WatchEventType.linkUp.rawValue
        case .linkDown: WatchEventType.linkDown.rawValue
        case .unknown(let type, _): type
        }
    }

    /// When it happened, seconds since the Unix epoch.
    public var time: Double {
        switch self {
        case .message(_, _, _, _, _, let time), .neighbourJoined(_, _, let time), .neighbourLeft(_, _, _, let time),
             .linkUp(_, _, _, _, let time), .linkDown(_, _, _, let time), .unknown(_, let time):
            time
        }
    }
}
