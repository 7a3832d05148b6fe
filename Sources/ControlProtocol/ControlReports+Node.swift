import MeshProtocol

/// The `status` result.
public struct StatusReport: Codable, Equatable, Sendable {
    /// This node's ID, 32 hex digits.
    public var nodeID: String
    /// The first 8 hex digits.
    public var shortID: String
    /// This node's display name.
    public var name: String
    /// `udp` or `bluez`.
    public var transport: String
    /// Where the daemon is in its life, such as `starting`, `running` or `stopping`.
    public var state: String
    /// Seconds since the daemon started.
    public var uptimeSeconds: Double
    /// Neighbours now.
    public var neighbourCount: Int
    /// Nodes known beyond the neighbours.
    public var knownNodeCount: Int
    /// The daemon version.
    public var version: String

    /// Creates a status report.
    public init(
        nodeID: NodeID, name: String, transport: String, state: String, uptimeSeconds: Double,
        neighbourCount: Int, knownNodeCount: Int, version: String
    ) {
        self.nodeID = nodeID.hex
        self.shortID = nodeID.shortID
        self.name = name
        self.transport = transport
        self.state = state
        self.uptimeSeconds = uptimeSeconds
        self.neighbourCount = neighbourCount
        self.knownNodeCount = knownNodeCount
        self.version = version
    }
}

/// The `id` result: who this node is.
public struct IdentityReport: Codable, Equatable, Sendable {
    /// This node's ID, 32 hex digits.
    public var nodeID: String
    /// The first 8 hex digits.
    public var shortID: String
    /// A fingerprint people compare out of band.
    public var fingerprint: String
    /// The P-256 signing public key, X9.63, hex.
    public var signingKey: String
    /// The P-256 key-agreement public key, X9.63, hex.
    public var agreementKey: String

    /// Creates an identity report; the keys are hex-encoded here.
    public init(nodeID: NodeID, fingerprint: String, signingKey: [UInt8], agreementKey: [UInt8]) {
        self.nodeID = nodeID.hex
        self.shortID = nodeID.shortID
        self.fingerprint = fingerprint
        self.signingKey = Hex.encode(signingKey)
        self.agreementKey = Hex.encode(agreementKey)
    }
}

/// The `send` result.
public struct SendReport: Codable, Equatable, Sendable {
    /// The new message's ID, 32 hex digits.
    public var messageID: String
    /// Neighbours it went to at once, on a ready link.
    public var sentTo: Int
    /// Neighbours in their departure grace it is held for, sent when one of their links is ready.
    public var heldFor: Int

    /// Creates a send report.
    public init(messageID: MessageID, sentTo: Int, heldFor: Int) {
        self.messageID = messageID.hex
        self.sentTo = sentTo
        self.heldFor = heldFor
    }
}

/// The `watch` result, sent once before the events.
public struct WatchReport: Codable, Equatable, Sendable {
    /// Always true: events follow on this connection.
    public var watching: Bool

    /// Creates a watch report.
    public init() { watching = true }
}
