import MeshLink
import MeshNode

/// How a simulated connection behaves.
public struct SimLinkSpec: Sendable {
    /// The ATT MTU of both ends.
    public var mtu: Int
    /// One-way delay of every frame.
    public var latency: Duration
    /// Probability that a frame is lost, 0...1.
    public var loss: Double

    /// Creates a spec; defaults are a clean BLE link with a 185-byte MTU.
    public init(mtu: Int = 185, latency: Duration = .milliseconds(15), loss: Double = 0) {
        self.mtu = mtu
        self.latency = latency
        self.loss = loss
    }
}

/// A handle on one simulated connection between two nodes.
public struct SimConnection: Hashable, Sendable {
    /// The connection's number.
    public let id: Int
    /// The node that connected (central).
    public let central: Int
    /// The node that was connected to (peripheral).
    public let peripheral: Int
}

/// One end of a live connection: which node and link ID it maps to on the other side.
struct SimEndpoint {
    let connection: SimConnection
    let peerNode: Int
    let peerLink: LinkID
    let spec: SimLinkSpec
}
