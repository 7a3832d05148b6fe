/// `[timers]` settings.
public struct TimerSettings: Equatable, Sendable {
    /// How often a heartbeat goes to each neighbour.
    public var heartbeatInterval = Duration.seconds(10)
    /// How long a silent neighbour is kept before it counts as gone.
    public var departureGrace = Duration.seconds(30)
    /// How long a link may take to finish its key exchange.
    public var handshakeTimeout = Duration.seconds(10)
    /// How often link keys are renewed.
    public var rekeyInterval = Duration.seconds(3600)

    /// Creates the defaults.
    public init() {}
}
