import ControlProtocol
import MeshProtocol

/// What relayctl was asked to do.
public struct RelayctlInvocation: Equatable, Sendable {
    /// The default control socket, `ControlSocketDefaults.path`.
    public static let defaultSocket = ControlSocketDefaults.path
    /// The command.
    public var command: RelayctlCommand
    /// The control socket path.
    public var socketPath: String
    /// Print the result JSON instead of tables.
    public var json: Bool
    /// `stats`: the counter groups asked for (all when empty).
    public var statsGroups: [String]
    /// `stats --all`: show counters at zero too.
    public var statsAll: Bool

    /// Creates an invocation.
    public init(command: RelayctlCommand, socketPath: String = defaultSocket, json: Bool = false,
                statsGroups: [String] = [], statsAll: Bool = false) {
        self.command = command
        self.socketPath = socketPath
        self.json = json
        self.statsGroups = statsGroups
        self.statsAll = statsAll
    }
}
