/// Where the bridge's connection stands (`relayctl status`).
public enum MQTTBridgeState: Equatable, Sendable {
    /// Not started yet, or stopped.
    case stopped
    /// A connection attempt is under way.
    case connecting
    /// Connected and subscribed.
    case connected
    /// Waiting before the next attempt, until engine time `at`.
    case reconnecting(at: Duration)
}
