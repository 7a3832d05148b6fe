import Flooding
import MeshCrypto
import MeshLink
import MeshProtocol

/// The receive path's per-kind handling: what an accepted envelope means here, and so what the
/// fan-out does with it.
extension MeshEngine {
    /// Per-kind handling: delivers what is for us, lets key lookup decide about requests and
    /// answers, and says what the fan-out stage does. It never stops an envelope: a direct
    /// message for us that fails to open is reported and still relayed as the rules decided.
    func kindStage(_ arrival: Arrival, _ routed: consuming Routed) -> ReceiveStep<FanOut> {
        switch consume routed {
        case .shorterPath(let relay):
            // A key request is relayed once per node: what the answer planner decided stands.
            return .next(FanOut(
                relay: arrival.envelope.kind == .keyRequest ? nil : relay, uplinks: false, remembersJoin: false,
                offersToMailbox: false))
        case .accepted(let checked, let deliver, let relay):
            let withinShare = checked.withinShare
            // Part F: what came from the bridge never goes back to it; a request goes up only when
            // it may be relayed, an answer only the way its request came (H3).
            var fanOut = FanOut(
                relay: relay, uplinks: withinShare && arrival.source != .bridge,
                remembersJoin: withinShare && arrival.envelope.kind == .joinNotice, offersToMailbox: withinShare)
            switch checked.verified {
            case .keyRequest(let body):
                handleKeyRequest(arrival, body: body, fanOut: &fanOut)
            case .keyAnswer(let body, let profile, let signed):
                handleKeyAnswer(arrival, body: body, profile: profile, signed: signed, fanOut: &fanOut)
            default:
                if deliver { self.deliver(arrival.envelope, verified: checked.verified, from: arrival.sender, via: arrival.source, now: arrival.now) }
            }
            return .next(fanOut)
        }
    }

    /// A key request: remembered for its answers' way back, then the answer planner decides
    /// whether it goes further.
    private func handleKeyRequest(_ arrival: Arrival, body: KeyRequestBody, fanOut: inout FanOut) {
        let envelope = arrival.envelope
        let requestSource: RequestSource = arrival.source == .bridge ? .bridge : .neighbour(arrival.sender)
        lookup.recordRequest(KeyRequestKey(requester: envelope.origin, tag: body.tag), from: requestSource, now: arrival.now)
        if !considerKeyRequest(envelope, body: body, from: requestSource, now: arrival.now) {
            fanOut.relay = nil
            fanOut.uplinks = false
        }
    }

    /// A key answer: heard by key lookup, then relayed only the way its request came.
    private func handleKeyAnswer(
        _ arrival: Arrival, body: KeyAnswerBody, profile: Profile, signed: Envelope, fanOut: inout FanOut
    ) {
        let (envelope, now) = (arrival.envelope, arrival.now)
        hearKeyAnswer(envelope, body: body, profile: profile, signed: signed, via: arrival.sender, now: now)
        let request = envelope.destination.map { KeyRequestKey(requester: $0, tag: body.tag) }
        switch request.flatMap({ lookup.source(of: $0, now: now) }) {
        case .bridge:
            fanOut.relay = nil
        case .neighbour:
            fanOut.relay = fanOut.relay.map { backTheWayItCame($0, tag: body.tag, now: now) }
            fanOut.uplinks = false
        case nil:
            break
        }
    }

    private func deliver(_ envelope: Envelope, verified: Verified, from sender: NodeID, via source: EnvelopeSource, now: Duration) {
        switch verified {
        case .joinNotice(let profile):
            kindCounters[.joinNotice].delivered += 1
            // A node we meet for the first time two hops away has never heard our join notice
            // either (we joined before it): answer with our own (paced by the answer interval).
            // Known nodes get no answer, so two nodes exchange at most one pair of notices.
            if shouldAnswerJoinNotice(from: profile.nodeID) { pacing.answerNeeded() }
            keepSignedProfile(envelope, of: profile.nodeID)
            knownNodes.record(profile.nodeID, entry: KnownNodes.Entry(
                profile: profile, agreementKey: profile.agreementKey, signingKey: profile.signingKey,
                hops: envelope.hops &+ 1, lastHeard: now), via: sender)
            emit(.nodeLearned(profile, hops: envelope.hops &+ 1))
        case .broadcast(let body, let keys):
            learn(envelope, keys: keys, via: sender, now: now)
            kindCounters[.message].delivered += 1
            emitDelivered(envelope, text: body.text)
        case .sealedForSomeoneElse, .keyRequest, .keyAnswer:
            break
        case .sealedForUs:
            do {
                let plaintext = try InnerSeal.open(
                    envelope.payload, identity: identity, origin: envelope.origin, destination: nodeID,
                    messageID: envelope.messageID, kind: .message)
                let body = try ChatBody(decoding: plaintext)
                let keys = try OriginKeys(body: body, origin: envelope.origin)
                guard EnvelopeSigner.isValid(envelope, signingKey: keys.signing) else {
                    throw VerificationFailure.badSignature
                }
                learn(envelope, keys: keys, via: sender, now: now)
                kindCounters[.message].delivered += 1
                actions.append(mailbox.remember(envelope, meshNow: timestamp(at: now)))
                emitDelivered(envelope, text: body.text)
            } catch {
                budgets.penalize(sender, now: now)
                links.increment(\.innerSealFailures)
                drop(envelope, cause: .directMessage("\(error)"), from: source, counter: \.droppedUnverifiable)
            }
        }
    }

    /// True when a join notice from `origin` introduces a node that cannot know our keys yet.
    private func shouldAnswerJoinNotice(from origin: NodeID) -> Bool {
        origin != nodeID && knownNodes.entries[origin]?.profile == nil && neighbours.profile(of: origin) == nil
    }

    private func learn(_ envelope: Envelope, keys: OriginKeys, via sender: NodeID, now: Duration) {
        knownNodes.record(envelope.origin, entry: KnownNodes.Entry(
            profile: nil, agreementKey: keys.agreement.x963, signingKey: keys.signing.x963,
            hops: envelope.hops &+ 1, lastHeard: now), via: sender)
    }

    private func emitDelivered(_ envelope: Envelope, text: String) {
        emit(.delivered(DeliveredMessage(
            messageID: envelope.messageID, origin: envelope.origin, destination: envelope.destination,
            hops: envelope.hops, timestamp: envelope.timestamp, text: text)))
    }
}
