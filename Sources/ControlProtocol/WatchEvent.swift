import Glibc
import MeshProtocol

/// One event streamed to `watch` clients as `{"event": {...}}`.
///
/// `type` says which optional fields are present: `message` has messageID, from, to (absent
/// for broadcast), hops and text; `peer_joined`/`peer_left` have nodeID and name;
/// `link_up`/`link_down` have linkID, role, address and (for down) reason.
public struct WatchEvent: Codable, Equatable, Sendable {
    /// A chat message arrived for this node or for everyone.
    public static let message = "message"
    /// A neighbour finished its handshake (the wire type keeps the word `peer`, and so does this name).
    public static let peerJoined = "peer_joined"
    /// A neighbour departed.
    public static let peerLeft = "peer_left"
    /// A link came up.
    public static let linkUp = "link_up"
    /// A link went down.
    public static let linkDown = "link_down"

    /// The event type: one of the constants above.
    public var type: String
    /// When it happened, seconds since the Unix epoch.
    public var time: Double
    /// The message ID (messages).
    public var messageID: String?
    /// The origin node ID (messages).
    public var from: String?
    /// The destination node ID (direct messages only).
    public var to: String?
    /// How many relays carried it (messages).
    public var hops: Int?
    /// The chat text (messages).
    public var text: String?
    /// The node the event is about (peer events).
    public var nodeID: String?
    /// The node's display name, when known (peer events).
    public var name: String?
    /// The link number (link events).
    public var linkID: UInt64?
    /// `central` or `peripheral` (link events).
    public var role: String?
    /// The remote address (link events).
    public var address: String?
    /// Why it went down (link and peer departures).
    public var reason: String?

    /// Creates an event of `type` at `time`; set the fields that belong to the type.
    public init(type: String, time: Double = WatchEvent.now()) {
        self.type = type
        self.time = time
    }

    /// The wall clock now, in seconds since the Unix epoch.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A chat message delivered to this node.
    public static func message(
        id: MessageID, from: NodeID, to: NodeID?, hops: Int, text: String, time: Double = now()
    ) -> WatchEvent {
        var event = WatchEvent(type: message, time: time)
        event.messageID = id.hex
        event.from = from.hex
        event.to = to?.hex
        event.hops = hops
        event.text = text
        return event
    }

    /// A neighbour joined (`joined` true) or left: a `peer_joined` or `peer_left` event, named after the wire type.
    public static func peer(_ node: NodeID, name: String?, joined: Bool, reason: String? = nil, time: Double = now()) -> WatchEvent {
        var event = WatchEvent(type: joined ? peerJoined : peerLeft, time: time)
        event.nodeID = node.hex
        event.name = name
        event.reason = reason
        return event
    }
}
