import MeshProtocol

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
