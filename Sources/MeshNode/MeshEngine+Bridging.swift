import Flooding
import MeshLink
import MeshProtocol

extension MeshEngine {
    /// The link every envelope from the MQTT bridge is reported on (drop events, logs): no transport
    /// numbers a link this high.
    public static let bridgeLink = LinkID(UInt64.max)

    /// Handles an envelope that came down from the MQTT bridge (docs/PROTOCOL.md Part F) as one from
    /// a radio neighbour: the node that published it is its sender (the last entry of its route),
    /// and it passes the same checks (route, seen, loop, hop limit, freshness, share, signature)
    /// before it is delivered or relayed. It is never handed back to the bridge.
    public func receiveBridged(_ envelope: Envelope, now: Duration) -> [EngineAction] {
        switch envelope.kind {
        case .message, .joinNotice:
            flood(envelope, from: envelope.route.last ?? envelope.origin, on: Self.bridgeLink, now: now, bridged: true)
        case .profile, .heartbeat, .keyExchange:
            drop(envelope, cause: .envelope("kind \(envelope.kind) does not cross the bridge"), on: Self.bridgeLink, counter: \.droppedMalformed)
        }
        return takeActions()
    }

    /// Hands `envelope` to the bridge when this node is a gateway and its kind crosses.
    func uplink(_ envelope: Envelope) {
        guard configuration.bridged, envelope.kind == .message || envelope.kind == .joinNotice else { return }
        actions.append(.uplink(envelope))
    }
}
