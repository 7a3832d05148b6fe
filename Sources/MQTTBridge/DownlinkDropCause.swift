/// Why the bridge refused something the broker delivered, before the engine saw it.
public enum DownlinkDropCause: String, CaseIterable, Equatable, Sendable {
    /// Longer than ``DownlinkLimits/maxPayloadBytes``.
    case oversized
    /// A topic outside this mesh's five forms.
    case badTopic = "bad_topic"
    /// Bytes that do not decode as an envelope (docs/PROTOCOL.md Part A).
    case malformed
    /// An envelope whose kind or destination disagrees with its topic.
    case topicMismatch = "topic_mismatch"
    /// The publishing gateway (the route's last node) spent its share.
    case overGatewayShare = "over_gateway_share"
    /// All gateways together spent the bridge's total budget.
    case overTotal = "over_total"
    /// The engine's bridge inbox was full.
    case inboxFull = "inbox_full"
}
