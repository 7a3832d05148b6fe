import MeshProtocol

/// Why a received envelope was not accepted.
public enum DropReason: String, Sendable, CaseIterable {
    /// Its message ID is in the seen cache.
    case seen
    /// Our own node ID is already on its route (or we are its origin).
    case looped
    /// It has travelled as far as its kind's hop limit allows.
    case ttlSpent
    /// Its signed timestamp lies outside the window the seen cache can vouch for (too old,
    /// or too far ahead of our clock): a copy seen before could have been forgotten.
    case stale
}

/// A relay the rules ask for: the envelope to send on and the neighbours to send it to.
public struct RelayPlan: Equatable, Sendable {
    /// The envelope as relayed: hops + 1 and our node ID appended to the route.
    public var envelope: Envelope
    /// Neighbours (by node ID) that get a copy, in a stable order.
    public var targets: [NodeID]

    /// Creates a plan.
    public init(envelope: Envelope, targets: [NodeID]) {
        self.envelope = envelope
        self.targets = targets
    }
}

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
