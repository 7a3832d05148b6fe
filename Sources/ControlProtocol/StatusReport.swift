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
    /// Where the daemon is in its life: a `RuntimeState`'s raw value (`starting`, `running`,
    /// `stopping`); a string, so that a state a newer daemon adds still decodes.
    public var state: String
    /// Seconds since the daemon started.
    public var uptimeSeconds: Double
    /// Neighbours now.
    public var neighbourCount: Int
    /// Nodes known beyond the neighbours.
    public var knownNodeCount: Int
    /// The daemon version.
    public var version: String
    /// How far the transport has come, when it says (BlueZ: `waiting for bluetoothd (retry in
    /// 4 s)`, `running`, ...); absent on UDP.
    public var transportState: String?
    /// Mesh time as this node knows it; absent from daemons older than the field.
    public var clock: ClockReport?
    /// The MQTT bridge, when this node is a gateway; absent otherwise and from older daemons.
    public var bridge: BridgeReport?
    /// One word for the whole node: `ok`, `degraded` (it works, but see `healthReasons`) or
    /// `down` (it cannot carry messages now); absent from daemons older than the field.
    public var health: String?
    /// Why the health is not `ok`, one short phrase each (`no neighbours`); empty when `ok`.
    public var healthReasons: [String]?
    /// The configuration file the daemon read; absent when it runs on defaults and flags only.
    public var configFile: String?
    /// The state directory it uses (`[node] state_directory`).
    public var stateDirectory: String?
    /// The control socket it listens on.
    public var controlSocket: String?
    /// The user it runs as.
    public var user: String?
    /// Its process ID.
    public var pid: Int?
    /// True when systemd started it (a unit's `INVOCATION_ID`), false when it was started by hand.
    public var systemd: Bool?
    /// Settings (`section.key`) changed in the file since start that a reload could not apply:
    /// they take effect at the next restart. Absent when there are none.
    public var restartNeededFor: [String]?
    /// Why the last reload was refused (the running configuration stayed); absent after a good one.
    public var reloadError: String?

    /// Creates a status report.
    public init(
        nodeID: NodeID, name: String, transport: String, state: RuntimeState, uptimeSeconds: Double,
        neighbourCount: Int, knownNodeCount: Int, version: String, transportState: String? = nil, clock: ClockReport? = nil,
        bridge: BridgeReport? = nil
    ) {
        self.nodeID = nodeID.hex
        self.shortID = nodeID.shortID
        self.name = name
        self.transport = transport
        self.state = state.rawValue
        self.uptimeSeconds = uptimeSeconds
        self.neighbourCount = neighbourCount
        self.knownNodeCount = knownNodeCount
        self.version = version
        self.transportState = transportState
        self.clock = clock
        self.bridge = bridge
    }
}
