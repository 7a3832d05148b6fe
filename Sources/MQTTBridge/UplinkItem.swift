/// One envelope waiting to be published: its topic name, its bytes and the QoS it goes out with.
public struct UplinkItem: Equatable, Sendable {
    /// The full topic name (``MQTTTopicLayout/name(of:)``).
    public let topic: String
    /// The envelope's bytes exactly as encoded (docs/PROTOCOL.md Part A), signature untouched.
    public let payload: [UInt8]
    /// 0 or 1.
    public let qos: Int32

    /// Creates an item.
    public init(topic: String, payload: [UInt8], qos: Int32) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
    }
}
