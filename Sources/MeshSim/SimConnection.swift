import MeshLink
import MeshNode

/// A handle on one simulated connection between two nodes.
public struct SimConnection: Hashable, Sendable {
    /// The connection's number.
    public let id: Int
    /// The node that connected (central).
    public let central: Int
    /// The node that was connected to (peripheral).
    public let peripheral: Int
}
