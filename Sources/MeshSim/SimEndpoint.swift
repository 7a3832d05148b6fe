import MeshLink
import MeshNode

/// One end of a live connection: which node and link ID it maps to on the other side.
struct SimEndpoint {
    let connection: SimConnection
    let peerNode: Int
    let peerLink: LinkID
    let spec: SimLinkSpec
}
