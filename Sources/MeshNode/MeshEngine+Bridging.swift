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
        switch envelope.kind {
        case .keyAnswer where !answersPublishedRequest(envelope, now: now):
            // Before any public-key work: an answer is let in only for a request this gateway put
            // on the broker (PROTOCOL.md F4), so a publisher cannot spend the island's checks on it.
            lookupRequesterCounters.bridgedAnswersUnrequested += 1
            emit(.dropped(envelope.messageID, kind: .keyAnswer, cause: .envelope("no request of this gateway's"), source: .bridge))
        case .message, .joinNotice, .keyRequest, .keyAnswer:
            // Counted as a copy from a neighbour is once it opened and decoded (PROTOCOL.md F4 step 7).
            kindCounters[envelope.kind].received += 1
            let rebased = rebasedForDownlink(envelope)
            flood(rebased, from: rebased.route.last ?? rebased.origin, via: .bridge, now: now)
        case .profile, .heartbeat, .keyExchange:
            drop(envelope, cause: .envelope("kind \(envelope.kind) does not cross the bridge"), from: .bridge, counter: \.droppedMalformed)
        }
        return takeActions()
    }

    /// True when `envelope` is a key answer to a request this gateway published within the last
    /// 30 s, about the same target.
    private func answersPublishedRequest(_ envelope: Envelope, now: Duration) -> Bool {
        guard let requester = envelope.destination, let body = try? KeyAnswerBody(decoding: envelope.payload) else {
            return false
        }
        return publishedRequests.contains(KeyRequestKey(requester: requester, tag: body.tag), target: body.target, now: now)
    }

    /// `envelope` with at most ``EngineConfiguration/bridgeDownlinkHops`` hops: the route cut to its
    /// origin and its last entries (the publishing gateway last; with 0, the origin alone, which then
    /// counts as the sender). Hops and route are not signed; a route that does not fit is left as it
    /// is, for the route check to refuse.
    func rebasedForDownlink(_ envelope: Envelope) -> Envelope {
        let allowed = configuration.bridgeDownlinkHops
        guard envelope.hops > allowed, let sender = envelope.route.last, envelope.routeFits(handedOverBy: sender) else {
            return envelope
        }
        var rebased = envelope
        rebased.route = [envelope.origin] + envelope.route.suffix(Int(allowed))
        rebased.hops = allowed
        return rebased
    }

    /// Hands `envelope` to the bridge when this node is a gateway and its kind crosses (messages,
    /// join notices, key requests and answers; PROTOCOL.md F3). A key request is remembered, so an
    /// answer to it is let in from the broker.
    func uplink(_ envelope: Envelope, now: Duration) {
        guard configuration.bridged else { return }
        switch envelope.kind {
        case .message, .joinNotice, .keyAnswer:
            break
        case .keyRequest:
            guard let body = try? KeyRequestBody(decoding: envelope.payload) else { return }
            publishedRequests.record(KeyRequestKey(requester: envelope.origin, tag: body.tag), target: body.target, now: now)
        case .profile, .heartbeat, .keyExchange:
            return
        }
        actions.append(.uplink(envelope))
    }
}
