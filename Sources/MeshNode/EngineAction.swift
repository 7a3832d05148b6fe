import MeshLink
import MeshProtocol

/// What the engine asks its driver to do; the driver performs actions in order.
public enum EngineAction: Equatable, Sendable {
    /// Send one frame on a link.
    case send([UInt8], on: LinkID)
    /// Close a link.
    case disconnect(LinkID)
    /// Report an event: something to log or watch, never something to do.
    case event(EngineEvent)
    /// Offer a direct message for an unreachable recipient to the mailbox (PROTOCOL.md Part G),
    /// with the neighbour that handed it over (this node for its own). Only when
    /// ``EngineConfiguration/keepsMail``.
    case deposit(Envelope, depositor: NodeID)
    /// Remember that the direct message `MessageID` was delivered here until mesh time `until`
    /// (milliseconds), when no copy of it can be accepted any more (PROTOCOL.md G4): the
    /// mailbox keeps these across a restart.
    case rememberDelivery(MessageID, until: UInt64)
    /// Tell the transport that the link's key exchange completed, so a full slot table may
    /// prefer it over links that have none (``MeshTransport/linkKeyed(_:)``).
    case preferLink(LinkID)
    /// Publish an envelope to the MQTT bridge: the copy this node would hand a neighbour (the
    /// origin's own for what it originates, else hops + 1 and this node's ID on the route), signed
    /// bytes untouched (docs/PROTOCOL.md Part F). Only when ``EngineConfiguration/bridged``.
    case uplink(Envelope)
}
