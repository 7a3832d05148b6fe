import CMosquitto

/// One libmosquitto client (MQTT 5), made safe to share: every call below is one of libmosquitto's
/// thread-safe entry points (Debian builds it with threads), and the handle is destroyed only in
/// `deinit`, after the bridge's thread has left `mosquitto_loop` for good.
final class MosquittoClient: @unchecked Sendable {
    private let handle: OpaquePointer
    private let events: Box

    /// The callbacks' owner, handed to libmosquitto as the client's user pointer.
    private final class Box: Sendable {
        let events: MosquittoEvents
        init(_ events: MosquittoEvents) { self.events = events }
    }

    /// Creates a client with a persistent session (clean start off) named `clientID`.
    init(clientID: String, events: MosquittoEvents) throws(MosquittoError) {
        Self.initializeLibrary
        let box = Box(events)
        guard let handle = mosquitto_new(clientID, false, Unmanaged.passUnretained(box).toOpaque()) else { throw .noClient }
        self.handle = handle
        self.events = box
        try check("protocol version", mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5))
        mosquitto_connect_v5_callback_set(handle) { _, user, reason, _, _ in
            guard let user else { return }
            Unmanaged<Box>.fromOpaque(user).takeUnretainedValue().events.connected(reason)
        }
        mosquitto_disconnect_v5_callback_set(handle) { _, user, reason, _ in
            guard let user else { return }
            Unmanaged<Box>.fromOpaque(user).takeUnretainedValue().events.disconnected(reason)
        }
        mosquitto_message_v5_callback_set(handle) { _, user, message, _ in
            guard let user, let message, let topic = message.pointee.topic else { return }
            let length = Int(max(0, message.pointee.payloadlen))
            let payload = UnsafeRawBufferPointer(start: length > 0 ? message.pointee.payload : nil, count: length)
            Unmanaged<Box>.fromOpaque(user).takeUnretainedValue().events.message(String(cString: topic), payload)
        }
    }

    deinit {
        mosquitto_destroy(handle)
    }

    private static let initializeLibrary: Void = { _ = mosquitto_lib_init() }()

    /// Sets TLS (when a CA file is given) and the login.
    func configure(_ credentials: MQTTCredentials) throws(MosquittoError) {
        if let caFile = credentials.caFile {
            try check("TLS", mosquitto_tls_set(handle, caFile, nil, credentials.certFile, credentials.keyFile, nil))
        }
        if let username = credentials.username {
            try check("login", mosquitto_username_pw_set(handle, username, credentials.password))
        }
    }

    /// Opens the connection (blocking while TCP and TLS connect), asking the broker to keep the
    /// session for `sessionExpiry` seconds and never to send a packet longer than `maxPacketBytes`
    /// (MQTT 5 Maximum Packet Size); libmosquitto's result code.
    func connect(host: String, port: Int, keepAlive: Int32, sessionExpiry: UInt32, maxPacketBytes: UInt32) -> Int32 {
        var properties: OpaquePointer?
        _ = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), sessionExpiry)
        _ = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), maxPacketBytes)
        defer { mosquitto_property_free_all(&properties) }
        return mosquitto_connect_bind_v5(handle, host, Int32(port), keepAlive, nil, properties)
    }

    /// Opens the connection again with the same settings; libmosquitto's result code.
    func reconnect() -> Int32 { mosquitto_reconnect(handle) }

    /// Runs the network for at most `milliseconds`; libmosquitto's result code.
    func loop(milliseconds: Int32) -> Int32 { mosquitto_loop(handle, milliseconds, 1) }

    /// Subscribes to `filter` with QoS 1 and No Local (our own publications never come back).
    func subscribe(_ filter: String) -> Int32 {
        mosquitto_subscribe_v5(handle, nil, filter, 1, Int32(MQTT_SUB_OPT_NO_LOCAL.rawValue), nil)
    }

    /// Queues one publication with libmosquitto; its result code.
    func publish(_ item: UplinkItem) -> Int32 {
        item.payload.withUnsafeBytes { bytes in
            mosquitto_publish_v5(handle, nil, item.topic, Int32(bytes.count), bytes.baseAddress, item.qos, false, nil)
        }
    }

    /// Ends the connection politely.
    func disconnect() { _ = mosquitto_disconnect(handle) }

    /// libmosquitto's words for a result code.
    static func describe(_ code: Int32) -> String {
        String(cString: mosquitto_strerror(code))
    }

    /// The MQTT 5 reason code's words.
    static func describe(reason: Int32) -> String {
        String(cString: mosquitto_reason_string(reason))
    }

    private func check(_ what: String, _ code: Int32) throws(MosquittoError) {
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw .setup(what, Self.describe(code)) }
    }
}
