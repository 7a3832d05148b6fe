/// What the control socket answered to `status`.
public enum DaemonFact: Equatable, Sendable {
    /// No connection; `errno` (ENOENT: no socket; EACCES: not in the control group; ECONNREFUSED: nobody listens).
    case cannotConnect(errno: Int32, reason: String)
    /// Connected, but no valid reply in time, or a refusal; the reason.
    case noReply(String)
    /// The status the daemon reported.
    case answered(DaemonStatus)
}

/// The parts of the daemon's `status` reply the checks read.
public struct DaemonStatus: Equatable, Sendable {
    /// `starting`, `running`, `stopping`.
    public var state: String
    /// The transport's own state (BlueZ: `running`, `waiting for bluetoothd ...`), when it says.
    public var transportState: String?
    /// The daemon's version.
    public var version: String
    /// The daemon's mesh clock (`status.clock`, PROTOCOL.md Part C "Mesh time"); nil when it reports none.
    public var meshClock: MeshClockFact?
    /// How the daemon runs, when it says (daemons older than these fields do not).
    public var runs: DaemonRuns?

    /// Creates the status.
    public init(state: String, transportState: String? = nil, version: String, meshClock: MeshClockFact? = nil,
                runs: DaemonRuns? = nil) {
        self.state = state
        self.transportState = transportState
        self.version = version
        self.meshClock = meshClock
        self.runs = runs
    }
}

/// How the running daemon says it runs (`status`: `transport`, `stateDirectory`, `user`, ...): what
/// the checks judge instead of the configuration's guesses.
public struct DaemonRuns: Equatable, Sendable {
    /// `udp` or `bluez`.
    public var transport: String
    /// Its state directory.
    public var stateDirectory: String
    /// The user it runs as.
    public var user: String
    /// Its process ID.
    public var pid: Int
    /// True when a systemd unit started it.
    public var systemd: Bool
    /// The configuration file it read; nil for none.
    public var configFile: String?

    /// Creates the description.
    public init(transport: String, stateDirectory: String, user: String, pid: Int, systemd: Bool, configFile: String?) {
        self.transport = transport
        self.stateDirectory = stateDirectory
        self.user = user
        self.pid = pid
        self.systemd = systemd
        self.configFile = configFile
    }
}

/// What the daemon knows of mesh time.
public struct MeshClockFact: Equatable, Sendable {
    /// True once at least two neighbours agreed on a mesh time.
    public var synchronised: Bool
    /// Mesh time minus this node's wall clock in milliseconds (positive: this clock is behind).
    public var offsetMilliseconds: Int64
    /// Neighbours whose reading counts now.
    public var votes: Int

    /// Creates the fact.
    public init(synchronised: Bool, offsetMilliseconds: Int64, votes: Int) {
        self.synchronised = synchronised
        self.offsetMilliseconds = offsetMilliseconds
        self.votes = votes
    }
}
