/// The kinds of envelope the mesh carries (the kind byte of frames and envelopes).
public enum MessageKind: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    /// A node's signed "business card", sent to a neighbour right after the key exchange.
    case profile = 0x01
    /// A chat message, broadcast or direct.
    case message = 0x02
    /// A newcomer's signed profile, relayed two hops so nodes further away learn its keys.
    case joinNotice = 0x03
    /// A liveness beacon to direct neighbours only.
    case heartbeat = 0x04
    /// A link key exchange; never relayed and never link-sealed.
    case keyExchange = 0x05

    /// A lowercase name for logs and counters.
    public var description: String {
        switch self {
        case .profile: "profile"
        case .message: "message"
        case .joinNotice: "join"
        case .heartbeat: "heartbeat"
        case .keyExchange: "keyExchange"
        }
    }
}
