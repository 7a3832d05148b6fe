import MeshLink

/// What the engine asks its driver to do; the driver performs actions in order.
public enum EngineAction: Equatable, Sendable {
    /// Send one frame on a link.
    case send([UInt8], on: LinkID)
    /// Close a link.
    case disconnect(LinkID)
    /// Report an event.
    case event(EngineEvent)
}
