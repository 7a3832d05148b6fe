/// What the MQTT bridge is built with, made from meshnoded.conf's `[mqtt]` by the daemon.
public struct MQTTBridgeConfiguration: Equatable, Sendable {
    /// The broker's host name or address.
    public var host: String
    /// The broker's TCP port (1883, or 8883 for TLS).
    public var port: Int
    /// The topic tree (prefix and mesh name).
    public var layout: MQTTTopicLayout
    /// The MQTT client ID: stable across restarts, so the broker keeps this gateway's session.
    public var clientID: String
    /// QoS of broadcasts and join notices (0 or 1); direct messages always go with QoS 1.
    public var broadcastQoS: Int32
    /// Seconds the broker keeps this gateway's session (its subscriptions and QoS 1 messages)
    /// while it is away.
    public var sessionExpirySeconds: UInt32
    /// The keep-alive interval in seconds.
    public var keepAliveSeconds: Int32
    /// The most envelopes waiting for the broker.
    public var queueCapacity: Int
    /// The bounds on what the broker may hand in.
    public var downlink: DownlinkLimits
    /// Waits between connection attempts.
    public var backoff: ReconnectBackoff
    /// TLS and login, if any.
    public var credentials: MQTTCredentials

    /// Creates a configuration with the documented defaults.
    public init(
        host: String = "localhost", port: Int = 1883, layout: MQTTTopicLayout, clientID: String,
        broadcastQoS: Int32 = 0, sessionExpirySeconds: UInt32 = 3600, keepAliveSeconds: Int32 = 30,
        queueCapacity: Int = 1024, downlink: DownlinkLimits = DownlinkLimits(),
        backoff: ReconnectBackoff = ReconnectBackoff(), credentials: MQTTCredentials = MQTTCredentials()
    ) {
        self.host = host
        self.port = port
        self.layout = layout
        self.clientID = clientID
        self.broadcastQoS = broadcastQoS
        self.sessionExpirySeconds = sessionExpirySeconds
        self.keepAliveSeconds = keepAliveSeconds
        self.queueCapacity = queueCapacity
        self.downlink = downlink
        self.backoff = backoff
        self.credentials = credentials
    }
}
