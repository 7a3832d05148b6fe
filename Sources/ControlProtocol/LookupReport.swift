import MeshProtocol

/// The `lookup` result: what this node knows of one node, and how its key lookup stands.
public struct LookupReport: Codable, Equatable, Sendable {
    /// The node asked about, 32 hex digits.
    public var nodeID: String
    /// The first 8 hex digits.
    public var shortID: String
    /// True when its key-agreement key is known: a direct message to it can be sealed now.
    public var known: Bool
    /// True when it is a neighbour.
    public var neighbour: Bool
    /// Its display name, when a profile of it is known.
    public var name: String?
    /// Its distance in links (1 for a neighbour), when known.
    public var hops: Int?
    /// Seconds since it was last heard, when known.
    public var lastHeardSecondsAgo: Double?
    /// True while a key lookup for it is in flight.
    public var lookingUp: Bool
    /// Seconds since that lookup started.
    public var lookupSecondsAgo: Double?
    /// Messages waiting for its key.
    public var waitingMessages: Int
    /// How long a lookup waits for an answer (`[lookup] timeout`), in seconds.
    public var timeoutSeconds: Double

    /// Creates a report.
    public init(
        nodeID: NodeID, known: Bool, neighbour: Bool, name: String?, hops: Int?, lastHeardSecondsAgo: Double?,
        lookingUp: Bool, lookupSecondsAgo: Double?, waitingMessages: Int, timeoutSeconds: Double
    ) {
        self.nodeID = nodeID.hex
        self.shortID = nodeID.shortID
        self.known = known
        self.neighbour = neighbour
        self.name = name
        self.hops = hops
        self.lastHeardSecondsAgo = lastHeardSecondsAgo
        self.lookingUp = lookingUp
        self.lookupSecondsAgo = lookupSecondsAgo
        self.waitingMessages = waitingMessages
        self.timeoutSeconds = timeoutSeconds
    }
}
