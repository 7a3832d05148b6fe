/// What one `meshsim` run measured; `--json` prints it as one object.
struct MeshScaleResult: Codable, Sendable {
    /// The topology built.
    var topology: MeshScaleOptions.Topology
    /// The relay scheduler every node ran.
    var scheduler: MeshScaleOptions.Scheduler
    /// Nodes in the mesh.
    var nodes: Int
    /// Links in the mesh.
    var links: Int
    /// Mean links per node.
    var meanDegree: Double
    /// Most links at one node.
    var maxDegree: Int
    /// The seed of graph, identities, origins and relay delays.
    var seed: UInt64
    /// Probability that a frame was lost on a link.
    var loss: Double
    /// Broadcasts sent.
    var broadcasts: Int
    /// Direct messages sent (to a node at most 2 hops away, whose keys the origin has learned).
    var directMessages: Int
    /// Sends the engine refused (no neighbours, unknown destination).
    var sendFailures: Int
    /// Deliveries expected: for each broadcast, every node 1–3 hops from its origin in the graph;
    /// for each direct message, its destination.
    var expectedDeliveries: Int
    /// Expected deliveries that happened.
    var deliveries: Int
    /// `deliveries / expectedDeliveries`: the delivery ratio within the hop limit.
    var deliveryRatio: Double
    /// Times a node delivered a message it had already delivered.
    var duplicateDeliveries: Int
    /// Chat-message frames put on the air (originals and relays) while the messages flowed.
    var messageFrames: Int
    /// Chat-message envelopes relayed (engine counters, summed).
    var envelopesRelayed: UInt64
    /// `messageFrames / deliveries`.
    var framesPerDelivery: Double
    /// `envelopesRelayed / deliveries`.
    var relaysPerDelivery: Double
    /// 95th percentile of the hops a delivered message travelled.
    var p95Hops: Int
    /// 95th percentile of the virtual time from send to delivery, in milliseconds.
    var p95LatencyMs: Double
    /// Heartbeat frames per node per minute while the messages flowed.
    var heartbeatFramesPerNodePerMinute: Double
    /// Join-notice frames per node per minute while the messages flowed.
    var joinFramesPerNodePerMinute: Double
    /// Join-notice frames per node during the settling phase (everyone joining at once).
    var joinFramesPerNodeAtStart: Double
    /// Relay scheduler counters, summed over the nodes.
    var relaysScheduled: UInt64
    /// Relays held back for a random delay.
    var relaysDelayed: UInt64
    /// Held relays cancelled (enough copies heard, or no target left).
    var relaysCancelled: UInt64
    /// Targets dropped from held relays.
    var targetsPruned: UInt64
    /// Relays sent at once because a scheduler was full.
    var schedulerOverflow: UInt64
    /// Virtual seconds simulated.
    var virtualSeconds: Double
    /// Wall-clock seconds the run took (graph, keys, simulation).
    var wallSeconds: Double
    /// How the run was made: real crypto on every node (the only mode there is).
    var crypto: String
}
