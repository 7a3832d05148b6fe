import MeshProtocol

/// Where a key request came into this node from: a radio neighbour, or the MQTT bridge
/// (docs/PROTOCOL.md H3 and F4). The bridge counts as one neighbour for the request and answer
/// budgets, and an answer to a request that came down from it goes back up to it alone.
public enum RequestSource: Hashable, Sendable {
    /// A neighbour, by its node ID.
    case neighbour(NodeID)
    /// The broker, whichever gateway published the request.
    case bridge
}
