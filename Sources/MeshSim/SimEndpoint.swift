import MeshLink
import MeshNode

/// One end of a live connection: which node and link ID it maps to on the other side.
struct SimEndpoint {
    /// The simulated connection this end belongs to.
    let connection: SimConnection
    /// The node at the other end of the connection: its peer in transport terms (the simulator
    /// is the transport; the engine on either side calls it a neighbour once keyed).
    let peerNode: Int
    /// The link ID the other end knows this connection by.
    let peerLink: LinkID
    /// The connection's MTU, latency and loss.
    let spec: SimLinkSpec
}
