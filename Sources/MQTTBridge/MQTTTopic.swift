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
    /// Key requests (docs/PROTOCOL.md Part H), whatever their target: `…/keyrequest`.
    case keyRequest
    /// Key answers for one requester: `…/keyanswer/<32 lowercase hex digits>`.
    case keyAnswer(NodeID)

    /// The topic an envelope is published on, or nil for a kind that never crosses the bridge.
    public init?(for envelope: Envelope) {
        switch envelope.kind {
        case .message: self = envelope.destination.map(MQTTTopic.direct) ?? .broadcast
        case .joinNotice: self = .joinNotice
        case .keyRequest: self = .keyRequest
        case .keyAnswer:
            guard let requester = envelope.destination else { return nil }
            self = .keyAnswer(requester)
        case .profile, .heartbeat, .keyExchange: return nil
        }
    }

    /// True for the key lookup topics: QoS 0 always, and never queued while the broker is away.
    public var isLookup: Bool {
        switch self {
        case .keyRequest, .keyAnswer: true
        case .broadcast, .joinNotice, .direct: false
        }
    }

    /// True when `envelope` belongs on this topic (kind and destination agree).
    public func carries(_ envelope: Envelope) -> Bool {
        MQTTTopic(for: envelope) == self
    }
}
