/// The bounds on what the broker may hand the engine (docs/SECURITY.md, "MQTT bridge").
public struct DownlinkLimits: Equatable, Sendable {
    /// The longest payload decoded; the envelope's own bound (docs/PROTOCOL.md Part A).
    public var maxPayloadBytes: Int
    /// Envelopes per second one publishing gateway may hand in.
    public var gatewayMessagesPerSecond: Double
    /// The burst of one publishing gateway.
    public var gatewayBurst: Double
    /// Envelopes per second all gateways together may hand in.
    public var totalMessagesPerSecond: Double
    /// The burst of all gateways together.
    public var totalBurst: Double
    /// Gateways with a share of their own; any further gateway shares one overflow share.
    public var maxGateways: Int
    /// A gateway that handed in nothing for this long gives its share up to the next new one
    /// (docs/PROTOCOL.md F4, step 4).
    public var gatewayIdleTimeout: Duration

    /// What an MQTT 5 PUBLISH may hold beside its payload: fixed header, topic length, packet
    /// identifier and up to 1 KB of properties (docs/PROTOCOL.md F1).
    public static let packetOverheadBytes = 5 + 2 + 2 + 1024

    /// The Maximum Packet Size a gateway announces when it connects: the longest payload on the
    /// longest topic of `layout`, with ``packetOverheadBytes``. The broker sends nothing longer
    /// (MQTT 5, 3.1.2.11.4), so a huge payload never reaches the gateway's memory.
    public func maxPacketBytes(layout: MQTTTopicLayout) -> UInt32 {
        UInt32(maxPayloadBytes + layout.maxTopicLength + Self.packetOverheadBytes)
    }

    /// Creates limits with the documented defaults.
    public init(
        maxPayloadBytes: Int = 65_536, gatewayMessagesPerSecond: Double = 20, gatewayBurst: Double = 100,
        totalMessagesPerSecond: Double = 100, totalBurst: Double = 400, maxGateways: Int = 64,
        gatewayIdleTimeout: Duration = .seconds(600)
    ) {
        self.maxPayloadBytes = maxPayloadBytes
        self.gatewayMessagesPerSecond = gatewayMessagesPerSecond
        self.gatewayBurst = gatewayBurst
        self.totalMessagesPerSecond = totalMessagesPerSecond
        self.totalBurst = totalBurst
        self.maxGateways = maxGateways
        self.gatewayIdleTimeout = gatewayIdleTimeout
    }
}
