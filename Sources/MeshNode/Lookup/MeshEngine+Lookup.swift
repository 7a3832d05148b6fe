import Flooding
import MeshCrypto
import MeshProtocol

extension MeshEngine {
    /// What key lookup did, as this node's requests and as its answers to others.
    public var lookupCounters: KeyLookupCounters { lookup.counters }

    /// Lookups in flight and messages waiting for keys.
    public var pendingLookups: PendingLookups { lookup.pending }

    /// Takes a message waiting in memory for a key out, so it is never sent (`relayctl cancel`);
    /// nil when none waits with this ID.
    public func cancelWaiting(_ messageID: MessageID) -> (target: NodeID, message: PendingLookups.WaitingMessage)? {
        lookup.cancel(messageID)
    }

    /// True when a direct message to `node` can be sealed now (its key-agreement key is known).
    public func knowsKey(of node: NodeID) -> Bool { agreementKey(of: node) != nil }

    /// Starts a key lookup for `target` (or joins the one in flight) and sends its request.
    public func lookUp(_ target: NodeID, now: Duration) -> (PendingLookups.Start, [EngineAction]) {
        let start = startLookup(target, now: now)
        return (start, takeActions())
    }

    /// Sends a direct message, looking up the destination's key first when it is not known:
    /// the text then waits (bounded) and goes out when an answer brings the key.
    public func sendOrLookUp(
        text: String, to destination: NodeID, now: Duration
    ) throws(SendFailure) -> (SendOrLookup, [EngineAction]) {
        if knowsKey(of: destination) || destination == nodeID {
            let (sent, actions) = try send(text: text, to: destination, now: now)
            return (.sent(sent), actions)
        }
        guard text.utf8.count <= ChatBody.maxTextLength else { throw .textTooLong(text.utf8.count) }
        guard !relayTargets().isEmpty else { throw .noNeighbours }
        let messageID = newMessageID()
        guard startLookup(destination, now: now) != .full, lookup.enqueue(text, id: messageID, for: destination) else {
            lookup.countDropped()
            throw .lookupsFull
        }
        return (.waitingForKey(messageID), takeActions())
    }

    private func startLookup(_ target: NodeID, now: Duration) -> PendingLookups.Start {
        let tag = random.next()
        let start = lookup.start(target, tag: tag, now: now)
        if start == .started { sendKeyRequest(for: target, tag: tag, now: now) }
        return start
    }

    private func sendKeyRequest(for target: NodeID, tag: UInt64, now: Duration) {
        let envelope = Envelope(
            kind: .keyRequest, messageID: newMessageID(), origin: nodeID, route: [nodeID], timestamp: timestamp(at: now),
            payload: KeyRequestBody(target: target, tag: tag).encoded())
        originate(envelope, now: now)
    }

    /// Retries lookups whose interval passed and ends those that timed out (from `tick`).
    func runLookupTimers(now: Duration) {
        for (target, tag) in lookup.retries(now: now, newTag: { random.next() }) {
            sendKeyRequest(for: target, tag: tag, now: now)
        }
        for ended in lookup.expired(now: now) {
            emit(.lookupFailed(ended.target, droppedMessages: ended.messages.count))
        }
    }

    /// Decides about a request accepted by the relay rules; returns whether it may be relayed.
    func considerKeyRequest(_ envelope: Envelope, body: KeyRequestBody, from source: RequestSource, now: Duration) -> Bool {
        kindCounters[.keyRequest].delivered += 1
        let holder: KeyAnswerPlanner.Holder
        if body.target == nodeID {
            holder = .target
        } else if isKnown(body.target), lookup.signedProfile(of: body.target) != nil {
            holder = .cached
        } else {
            holder = .none
        }
        let request = KeyRequestKey(requester: envelope.origin, tag: body.tag)
        return lookup.consider(request, target: body.target, from: source, holder: holder, now: now)
    }

    /// Learns from a verified answer, cancels our own answer to the same request, and ends our
    /// lookup when the answer is for us. Only the requester waiting for that target keeps the
    /// profile (docs/PROTOCOL.md H3): anyone can mint identities and answer with their genuine
    /// profiles, so a relay keeps nothing, and an answer nobody here asked for is only counted.
    func hearKeyAnswer(_ envelope: Envelope, body: KeyAnswerBody, profile: Profile, signed: Envelope, via sender: NodeID, now: Duration) {
        guard let requester = envelope.destination else { return }
        let request = KeyRequestKey(requester: requester, tag: body.tag)
        let waiting = lookup.heardAnswer(request, target: profile.nodeID, localNode: nodeID, now: now)
        guard requester == nodeID else { return }
        kindCounters[.keyAnswer].delivered += 1
        guard waiting else { return }
        // The answerer's distance, plus one when it is not the target (an estimate).
        let hops = envelope.hops &+ (envelope.origin == profile.nodeID ? 1 : 2)
        lookup.keepSignedProfile(signed, of: profile.nodeID)
        if neighbours.profile(of: profile.nodeID) == nil {
            knownNodes.record(profile.nodeID, entry: KnownNodes.Entry(
                profile: profile, agreementKey: profile.agreementKey, signingKey: profile.signingKey,
                hops: knownNodes.entries[profile.nodeID]?.hops ?? hops, lastHeard: now), via: sender)
        }
        guard let resolved = lookup.resolve(profile.nodeID) else { return }
        emit(.keyFound(profile, hops: hops))
        for waiting in resolved.messages {
            guard let (sent, actions) = try? send(text: waiting.text, to: profile.nodeID, messageID: waiting.messageID, now: now) else {
                lookup.countDropped()
                continue
            }
            // `send` hands back every action taken so far (this turn's relays too): keep them all.
            self.actions = actions
            lookup.countSentAfterLookup()
            emit(.sentAfterLookup(profile.nodeID, sent))
        }
    }

    /// An answer's relay, cut to the neighbour the request came from when this node relayed that
    /// request and the neighbour is still a target; else unchanged (every step-9 target).
    func backTheWayItCame(_ plan: RelayPlan, tag: UInt64, now: Duration) -> RelayPlan {
        guard let requester = plan.envelope.destination,
            let back = lookup.neighbour(of: KeyRequestKey(requester: requester, tag: tag), now: now),
            plan.targets.contains(back)
        else { return plan }
        return RelayPlan(envelope: plan.envelope, targets: [back])
    }

    /// Sends every scheduled answer that is due.
    func sendDueAnswers(now: Duration) {
        for answer in lookup.dueAnswers(now: now) {
            guard let signed = answerEnvelope(for: answer.target, now: now) else { continue }
            let body = KeyAnswerBody(tag: answer.request.tag, target: answer.target, profileEnvelope: signed.encoded())
            let envelope = Envelope(
                kind: .keyAnswer, messageID: newMessageID(), origin: nodeID, destination: answer.request.requester,
                route: [nodeID], timestamp: timestamp(at: now), payload: body.encoded())
            // Back the way the request came: to the bridge alone, to that neighbour alone, or (no
            // memory of it) to every neighbour and the bridge.
            switch lookup.source(of: answer.request, now: now) {
            case .bridge:
                router.recordOriginated(envelope.messageID, now: now)
                uplink(envelope, now: now)
            case .neighbour(let neighbour):
                originate(envelope, only: neighbour, uplinking: false, now: now)
            case nil:
                originate(envelope, now: now)
            }
        }
    }

    /// Remembers a verified profile or join notice envelope for later answers.
    func keepSignedProfile(_ envelope: Envelope, of node: NodeID) {
        lookup.keepSignedProfile(envelope, of: node)
    }

    /// The signed profile envelope an answer about `target` carries: a fresh one of our own,
    /// or the one we hold while we still know the target.
    private func answerEnvelope(for target: NodeID, now: Duration) -> Envelope? {
        guard target == nodeID else { return isKnown(target) ? lookup.signedProfile(of: target) : nil }
        var envelope = Envelope(
            kind: .profile, messageID: newMessageID(), origin: nodeID, route: [nodeID], timestamp: timestamp(at: now),
            payload: profile.encoded())
        guard (try? EnvelopeSigner.sign(&envelope, with: identity)) != nil else { return nil }
        return envelope
    }

    private func isKnown(_ node: NodeID) -> Bool {
        neighbours.profile(of: node) != nil || knownNodes.entries[node]?.profile != nil
    }
}
