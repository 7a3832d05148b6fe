/// The MQTT bridge in `status` (docs/CONTROL.md): absent when `[mqtt]` is off.
public struct BridgeReport: Codable, Equatable, Sendable {
    /// `connected`, `connecting`, `reconnecting` or `stopped`.
    public var state: String
    /// The broker, `host:port`.
    public var broker: String
    /// Seconds until the next attempt, when `reconnecting`.
    public var retryInSeconds: Double?
    /// libmosquitto's words for the last failure, if any.
    public var lastError: String?
    /// Envelopes waiting for the broker.
    public var queued: UInt64

    /// Creates a report.
    public init(state: String, broker: String, retryInSeconds: Double? = nil, lastError: String? = nil, queued: UInt64 = 0) {
        self.state = state
        self.broker = broker
        self.retryInSeconds = retryInSeconds
        self.lastError = lastError
        self.queued = queued
    }
}
