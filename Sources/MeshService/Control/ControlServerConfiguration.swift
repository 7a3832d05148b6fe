import MeshConfig

/// Limits and placement of the control socket.
public struct ControlServerConfiguration: Equatable, Sendable {
    /// The socket path.
    public var socketPath: String
    /// The group given access (mode 0660); nil keeps the process's group.
    public var group: String?
    /// The longest request line, in bytes; a longer one gets `request_too_large` and the connection closes.
    public var maxRequestBytes = 16_384
    /// The most clients at once; more get `too_many_clients` and are closed.
    public var maxClients = 64
    /// The most reply and event bytes queued for one client; a client that lets more pile up is dropped.
    public var maxOutputBytes = 1_048_576
    /// Queued output at which the server stops reading a client's requests; it reads again once
    /// the backlog is down to half of this.
    public var pauseOutputBytes = 65_536
    /// How long queued output may go without a byte written before the client is dropped.
    public var stuckTimeout = Duration.seconds(10)
    /// The most requests answered for one client before the others get their turn.
    public var maxRequestsPerTurn = 16
    /// How long a started request line may take to finish before `request_timeout`.
    public var requestTimeout = Duration.seconds(5)

    /// Creates a configuration with the default limits.
    public init(socketPath: String, group: String?) {
        self.socketPath = socketPath
        self.group = group
    }

    /// Creates the configuration the `[node]` section gives.
    public init(_ node: NodeSettings) {
        self.init(socketPath: node.controlSocket, group: node.controlGroup)
    }
}
