/// The kinds of log record; each has a fixed 128-bit `MESSAGE_ID` for journalctl.
///
/// The IDs never change once released; docs/OPERATIONS.md lists them.
public enum LogEvent: String, CaseIterable, Sendable {
    /// The daemon finished starting and is serving.
    case daemonStarted = "daemon_started"
    /// The daemon is stopping.
    case daemonStopping = "daemon_stopping"
    /// SIGHUP re-read the configuration.
    case configReloaded = "config_reloaded"
    /// A configuration was refused (start-up or reload).
    case configRejected = "config_rejected"
    /// The control socket is listening.
    case controlReady = "control_ready"
    /// A control client sent a bad, oversized or unfinished request, or was too slow.
    case controlClientError = "control_client_error"
    /// A transport link came up.
    case linkUp = "link_up"
    /// A transport link went down.
    case linkDown = "link_down"
    /// A neighbour completed its handshake or returned within its grace, or a remote node was
    /// learned from its join notice (the journal value keeps the older word `peer`).
    case nodeJoined = "peer_joined"
    /// A neighbour departed (the journal value keeps the older word `peer`).
    case neighbourLeft = "peer_left"
    /// A link key exchange finished.
    case handshakeCompleted = "handshake_completed"
    /// A link key exchange or profile check failed or timed out.
    case handshakeFailed = "handshake_failed"
    /// This node sent a message of its own.
    case messageOriginated = "message_originated"
    /// This node relayed a message.
    case messageRelayed = "message_relayed"
    /// A message for this node (or everyone) was delivered locally.
    case messageDelivered = "message_delivered"
    /// A message was dropped (duplicate, hop limit, invalid, no route).
    case messageDropped = "message_dropped"
    /// A frame failed decoding, authentication or limits.
    case frameRejected = "frame_rejected"
    /// The transport failed (socket, BlueZ, D-Bus).
    case transportError = "transport_error"
    /// The mesh-time estimate was first set or moved by a minute or more.
    case meshClock = "mesh_clock"
    /// The mailbox held, handed over, expired or evicted mail, or its database was moved aside.
    case mailbox = "mailbox"
    /// The MQTT bridge started, connected, lost its broker or gave up on a setting.
    case mqttBridge = "mqtt_bridge"
    /// Anything else.
    case general = "general"

    /// The journal `MESSAGE_ID`: 32 lowercase hex digits.
    public var messageID: String {
        switch self {
        case .daemonStarted: "f3fd17fd0c7545fb854a3cf734ca5b5c"
        case .daemonStopping: "965cdb41a40b4ef6b173fbb50d18cead"
        case .configReloaded: "6fffcd14c9d2489b9a27c3ac343bd852"
        case .configRejected: "977fc88578de4aa6bd497dee0b9693cc"
        case .controlReady: "a0e133f39496454c9afb8fc63ff5d131"
        case .controlClientError: "1613462a03c644d08cf6daedd24a9b50"
        case .linkUp: "d634d19d70484d1c832322adcb9c1328"
        case .linkDown: "0181ffb9d9e548d2ac3b80ba97640973"
        case .nodeJoined: "046c3c43761b4d3797d62c6d45686307"
        case .neighbourLeft: "9d21b000d2d14ed78f3c4bd435dc2d94"
        case .handshakeCompleted: "0a6c57b5dd84461ca27087cf4f13a346"
        case .handshakeFailed: "19f33d7703114cf4a163d1a985956ebe"
        case .messageOriginated: "64ca970447ad462ea7ee27c262014cec"
        case .messageRelayed: "c4600581eb5f4c8c86fabfa56a4c4c80"
        case .messageDelivered: "6571f35fd03e4688ba8c0d44d63934e3"
        case .messageDropped: "b6b2eaf9659443bf9ff6618748721a5f"
        case .frameRejected: "d6353b9419404020b2ef054649b6f7bc"
        case .transportError: "3fd202b775e243cab5cc1a53602dfceb"
        case .meshClock: "534f53c08bd74b78ac41fb3b2cc1aeb3"
        case .mailbox: "ed206892d9d148b781f17a45a48fe6d3"
        case .mqttBridge: "44526fbc48e5432f9188c0f4bd3ebd19"
        case .general: "765096c933bd45bdb6c8bffcbd0a22ff"
        }
    }
}
