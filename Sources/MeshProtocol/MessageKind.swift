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
    /// A request for a node's signed profile, flooded within its own hop limit (PROTOCOL.md Part H).
    case keyRequest = 0x06
    /// An answer to a key request: the target's signed profile, unchanged, for the requester.
    case keyAnswer = 0x07

    /// A lowercase name for logs and counters.
    public var description: String {
        switch self {
        case .profile: "profile"
        case .message: "message"
        case .joinNotice: "join"
        case .heartbeat: "heartbeat"
        case .keyExchange: "keyExchange"
        case .keyRequest: "keyRequest"
        case .keyAnswer: "keyAnswer"
        }
    }
}
