import MeshLink
import MeshProtocol

/// What the engine asks its driver to do; the driver performs actions in order.
public enum EngineAction: Equatable, Sendable {
    /// Send one frame on a link.
    case send([UInt8], on: LinkID)
    /// Close a link.
    case disconnect(LinkID)
    /// Report an event.
    case event(EngineEvent)
    /// Publish an envelope to the MQTT bridge: the copy this node would hand a neighbour (the
    /// origin's own for what it originates, else hops + 1 and this node's ID on the route), signed
    /// bytes untouched (docs/PROTOCOL.md Part F). Only when ``EngineConfiguration/bridged``.
    case uplink(Envelope)
}
