import Flooding
import MeshLink
import MeshProtocol

extension MeshEngine {
    /// Handles an envelope that came down from the MQTT bridge (docs/PROTOCOL.md Part F; its source
    /// is ``EnvelopeSource/bridge``) as one from a radio neighbour: the node that published it is its
    /// sender (the last entry of its route), and it passes the same checks (route, seen, loop, hop
    /// limit, freshness, share, signature) before it is delivered or relayed. It is never handed back
    /// to the bridge. The broker is no hop, and an envelope that travelled more than
    /// ``EngineConfiguration/bridgeDownlinkHops`` before it was published enters this island re-based
    /// to that many (``rebasedForDownlink(_:)``).
    public func receiveBridged(_ envelope: Envelope, now: Duration) -> [EngineAction] {
        if !envelope.kind.isFlooded {
            drop(envelope, cause: .envelope("kind \(envelope.kind) does not cross the bridge"), from: .bridge, counter: \.droppedMalformed)
        } else if envelope.kind == .keyAnswer, !bridge.answersPublishedRequest(envelope, now: now) {
            // Before any public-key work: an answer is let in only for a request this gateway put
            // on the broker (PROTOCOL.md F4), so a publisher cannot spend the island's checks on it.
            lookup.countBridgedAnswerUnrequested()
            emit(.dropped(envelope.messageID, kind: .keyAnswer, cause: .envelope("no request of this gateway's"), source: .bridge))
        } else {
            // Counted as a copy from a neighbour is once it opened and decoded (PROTOCOL.md F4 step 7).
            kindCounters[envelope.kind].received += 1
            let rebased = rebasedForDownlink(envelope)
            flood(rebased, from: rebased.route.last ?? rebased.origin, via: .bridge, now: now)
        }
        return takeActions()
    }

    /// `envelope` with at most ``EngineConfiguration/bridgeDownlinkHops`` hops (``BridgePolicy/rebased(_:)``).
    func rebasedForDownlink(_ envelope: Envelope) -> Envelope { bridge.rebased(envelope) }

    /// Hands `envelope` to the bridge when this node is a gateway and its kind crosses
    /// (``BridgePolicy/uplink(_:now:)``).
    func uplink(_ envelope: Envelope, now: Duration) {
        if let action = bridge.uplink(envelope, now: now) { actions.append(action) }
    }
}
