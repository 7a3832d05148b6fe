/// Everything meshnoded reads from meshnoded.conf and its flags, each with its shipped default.
///
/// `DaemonConfig()` is the default configuration; `DaemonConfigLoader` applies a file and flags.
public struct DaemonConfig: Equatable, Sendable {
    /// `[node]`: who the node is and where it keeps its files.
    public var node = NodeSettings()
    /// `[transport]`: which transport carries frames.
    public var transport = TransportSettings()
    /// `[udp]`: the loopback UDP transport for tests and local meshes.
    public var udp = UDPSettings()
    /// `[bluez]`: the Bluetooth LE transport through BlueZ.
    public var bluez = BlueZSettings()
    /// `[relay]`: hop limits per message kind.
    public var relay = RelaySettings()
    /// `[timers]`: heartbeats, departures, handshakes, re-keying.
    public var timers = TimerSettings()
    /// `[seen]`: the seen-message-ID cache.
    public var seen = SeenSettings()
    /// `[fragments]`: reassembly limits.
    public var fragments = FragmentSettings()
    /// `[crypto]`: link sealing options.
    public var crypto = CryptoSettings()
    /// `[hold]`: what is held for neighbours whose link is down.
    public var hold = HoldSettings()
    /// `[budget]`: what one neighbour may cost the others.
    public var budget = BudgetSettings()
    /// `[links]`: the budget and deadline of links still without link keys.
    public var links = LinkAdmissionSettings()

    /// Creates the default configuration.
    public init() {}
}

/// `[node]` settings.
public struct NodeSettings: Equatable, Sendable {
    /// The display name other nodes show (1...64 UTF-8 bytes).
    public var name = "MeshNode relay"
    /// The one-emoji icon other nodes show (1...16 UTF-8 bytes).
    public var icon = "📡"
    /// Where the identity keys live (systemd `StateDirectory=`).
    public var stateDirectory = "/var/lib/meshnoded"
    /// Where the control socket lives (systemd `RuntimeDirectory=`).
    public var runtimeDirectory = "/run/meshnoded"
    /// The control socket path when set explicitly; nil means `runtimeDirectory/control.sock`.
    public var controlSocketOverride: String?
    /// The group that may use the control socket.
    public var controlGroup = "meshnode"
    /// The least severe log level written.
    public var logLevel = LogLevel.info

    /// The control socket path in effect.
    public var controlSocket: String { controlSocketOverride ?? runtimeDirectory + "/control.sock" }

    /// Creates the defaults.
    public init() {}
}

/// Which transport carries frames.
public enum TransportKind: String, CaseIterable, Sendable {
    /// Loopback UDP between processes on one machine.
    case udp
    /// Bluetooth LE through BlueZ over D-Bus.
    case bluez
}

/// `[transport]` settings.
public struct TransportSettings: Equatable, Sendable {
    /// The transport in use.
    public var kind = TransportKind.bluez
    /// Creates the defaults.
    public init() {}
}

/// `[crypto]` settings.
public struct CryptoSettings: Equatable, Sendable {
    /// Pads sealed payloads to hide their length.
    public var padding = true
    /// Creates the defaults.
    public init() {}
}
