/// The bridge now: state, broker, last error and counters; any thread.
public struct MQTTBridgeStatus: Equatable, Sendable {
    /// The connection's state.
    public var state: MQTTBridgeState
    /// `host:port` of the broker.
    public var broker: String
    /// libmosquitto's words for the last failure, if any.
    public var lastError: String?
    /// The counters.
    public var counters: MQTTBridgeCounters

    /// Creates a status.
    public init(state: MQTTBridgeState, broker: String, lastError: String?, counters: MQTTBridgeCounters) {
        self.state = state
        self.broker = broker
        self.lastError = lastError
        self.counters = counters
    }
}
