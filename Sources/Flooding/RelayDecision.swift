import MeshProtocol

/// What the relay rules decide for one received envelope.
public enum RelayDecision: Equatable, Sendable {
    /// Drop it, for the reason given.
    case drop(DropReason)
    /// Accept it: deliver locally when `deliver` is true, and relay when `relay` is set.
    case accept(deliver: Bool, relay: RelayPlan?)
    /// A copy of a message already accepted, which came by a shorter path: relay it again
    /// when `relay` is set (it can reach further within the hop limit), never deliver it again.
    case shorterPath(relay: RelayPlan?)
}
