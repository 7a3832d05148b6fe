import MeshProtocol

/// Which relay scheduler a node runs.
public enum RelaySchedulerChoice: Equatable, Sendable {
    /// Classic RelayChat flooding: every relay at once to every target (``ImmediateRelayScheduler``).
    case plain
    /// Managed flooding (``ManagedRelayScheduler``) with these parameters.
    case managed(ManagedFloodingParameters)
}
