/// The `type` of a watch event on the wire, one per `WatchEvent` case this version knows.
public enum WatchEventType: String, CaseIterable, Sendable {
    /// A chat message arrived for this node or for everyone.
    case message
    /// A neighbour finished its handshake (the wire keeps the older word `peer`).
    case neighbourJoined = "peer_joined"
    /// A neighbour departed.
    case neighbourLeft = "peer_left"
    /// A link came up.
    case linkUp = "link_up"
    /// A link went down.
    case linkDown = "link_down"
}
