import CMosquitto
import Glibc

/// One libmosquitto client (MQTT 5) that publishes QoS 0 from the calling thread, with no
/// network thread: a publish writes straight to the socket, and `service` runs libmosquitto's
/// loop (what the socket did not take, keep-alive) without waiting.
final class BrokerPublisher {
    private let handle: OpaquePointer
    private let connected = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    /// Connects to `host:port` as `clientID` and waits up to 10 s for the broker's CONNACK.
    init(host: String, port: Int32, clientID: String) throws(MQTTFloodError) {
        _ = mosquitto_lib_init()
        connected.initialize(to: -1)
        guard let handle = mosquitto_new(clientID, true, connected) else { throw .mosquitto("client", "mosquitto_new failed") }
        self.handle = handle
        _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5)
        mosquitto_connect_v5_callback_set(handle) { _, user, reason, _, _ in
            user?.assumingMemoryBound(to: Int32.self).pointee = reason
        }
        try check("connect", mosquitto_connect_bind_v5(handle, host, port, 60, nil, nil))
        for _ in 0..<1000 where connected.pointee < 0 {
            try check("loop", mosquitto_loop(handle, 10, 1))
        }
        guard connected.pointee == 0 else { throw .notConnected("\(host):\(port)") }
    }

    deinit {
        _ = mosquitto_disconnect(handle)
        mosquitto_destroy(handle)
        connected.deallocate()
    }

    /// Publishes `payload` on `topic` with QoS 0; libmosquitto's result code.
    func publish(topic: String, payload: [UInt8]) -> Int32 {
        payload.withUnsafeBytes { bytes in
            mosquitto_publish_v5(handle, nil, topic, Int32(bytes.count), bytes.baseAddress, 0, false, nil)
        }
    }

    /// True while libmosquitto holds bytes the socket has not taken yet.
    var isBacklogged: Bool { mosquitto_want_write(handle) }

    /// Runs libmosquitto's loop once, waiting at most `milliseconds`; its result code.
    @discardableResult
    func service(milliseconds: Int32 = 0) -> Int32 { mosquitto_loop(handle, milliseconds, 1) }

    /// Sends what libmosquitto still holds, for at most `seconds`.
    func drain(seconds: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while isBacklogged && ContinuousClock.now < deadline { service(milliseconds: 10) }
    }

    /// libmosquitto's words for a result code.
    static func describe(_ code: Int32) -> String { String(cString: mosquitto_strerror(code)) }

    private func check(_ what: String, _ code: Int32) throws(MQTTFloodError) {
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw .mosquitto(what, Self.describe(code)) }
    }
}
