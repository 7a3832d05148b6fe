/// What the bridge's thread reports for the journal (docs/OPERATIONS.md, "Bridging islands").
public enum MQTTBridgeEvent: Equatable, Sendable {
    /// Connected to the broker and subscribing.
    case connected(broker: String)
    /// A connection was lost, or an attempt failed; the next attempt follows after `retryIn`.
    case unreachable(broker: String, reason: String, retryIn: Duration)
}
