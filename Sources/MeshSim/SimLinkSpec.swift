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
