import ControlProtocol

/// `[node]` settings.
public struct NodeSettings: Equatable, Sendable {
    /// The display name other nodes show (1...64 UTF-8 bytes).
    public var name = "MeshNode relay"
    /// The one-emoji icon other nodes show (1...16 UTF-8 bytes).
    public var icon = "📡"
    /// Where the identity keys live (systemd `StateDirectory=`).
    public var stateDirectory = "/var/lib/meshnoded"
    /// Where the control socket lives (systemd `RuntimeDirectory=`).
    public var runtimeDirectory = ControlSocketDefaults.directory
    /// The control socket path when set explicitly; nil means `runtimeDirectory/control.sock`.
    public var controlSocketOverride: String?
    /// The group that may use the control socket.
    public var controlGroup = "meshnode"
    /// The least severe log level written.
    public var logLevel = LogLevel.info

    /// The control socket path in effect.
    public var controlSocket: String { controlSocketOverride ?? runtimeDirectory + "/" + ControlSocketDefaults.fileName }

    /// Creates the defaults.
    public init() {}
}
