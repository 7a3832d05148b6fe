import MeshProtocol

/// What one bridge topic carries (docs/PROTOCOL.md Part F, "Topics"): the last one or two levels
/// after `<prefix>/<mesh>/`.
public enum MQTTTopic: Equatable, Sendable {
    /// Broadcast chat messages: `…/broadcast`.
    case broadcast
    /// Join notices: `…/join`.
    case joinNotice
    /// Direct messages for one node: `…/direct/<32 lowercase hex digits>`.
    case direct(NodeID)

    /// The topic an envelope is published on, or nil for a kind that never crosses the bridge.
    public init?(for envelope: Envelope) {
        switch envelope.kind {
        case .message: self = envelope.destination.map(MQTTTopic.direct) ?? .broadcast
        case .joinNotice: self = .joinNotice
        case .profile, .heartbeat, .keyExchange, .keyRequest, .keyAnswer: return nil
        }
    }

    /// True when `envelope` belongs on this topic (kind and destination agree).
    public func carries(_ envelope: Envelope) -> Bool {
        MQTTTopic(for: envelope) == self
    }
}
