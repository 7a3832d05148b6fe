import MeshProtocol

/// A broadcast from another node that M received from the node under test, kept for replay.
struct HeardBroadcast: Sendable {
    /// The envelope as it arrived (hops and route as relayed to M).
    let envelope: Envelope
    /// When it arrived, in seconds since the Unix epoch.
    let heardAt: Double
}
