import MeshProtocol

/// What the engine does with each kind, decided once: a new kind is a case here and its
/// handling in `Receiving/`, not a case in every switch.
extension MessageKind {
    /// True for the kinds the receive path floods (``MeshEngine/flood(_:from:via:now:)``): a
    /// receiver drops a second copy by message ID, so a link tracks them and sends them again
    /// (PROTOCOL.md D12), and they cross the MQTT bridge (F3). Profiles, heartbeats and key
    /// exchanges stay on their link.
    var isFlooded: Bool {
        switch self {
        case .message, .joinNotice, .keyRequest, .keyAnswer: true
        case .profile, .heartbeat, .keyExchange: false
        }
    }
}
