import Flooding
import MeshCrypto
import MeshLink
import MeshProtocol

extension MeshEngine {
    /// Handles an envelope that came out of a link seal on `link`, keyed with `sender`.
    func receiveEnvelope(_ envelope: Envelope, from sender: NodeID, on link: LinkID, now: Duration) {
        switch envelope.kind {
        case .profile:
            receiveProfile(envelope, from: sender, on: link, now: now)
        case .heartbeat:
            guard links[link]?.phase == .ready, envelope.hops == 0, envelope.origin == sender else {
                drop(envelope, cause: .foreignHeartbeat, from: .link(link), counter: \.droppedUnverifiable)
                return
            }
            kindCounters[.heartbeat].delivered += 1
            hearClock(envelope, from: sender, now: now)
        case .keyExchange:
            drop(envelope, cause: .sealedKeyExchange, from: .link(link), counter: \.droppedMalformed)
        case .message, .joinNotice, .keyRequest, .keyAnswer:
            // A keyed link already proves who the sender is. The neighbour may count the link
            // ready before we do (its profile has not reached us yet): what it sends in that
            // window is accepted, never lost.
            flood(envelope, from: sender, via: .link(link), now: now)
        }
    }

    func drop(_ envelope: Envelope, cause: DropCause, from source: EnvelopeSource, counter: WritableKeyPath<KindCounters, UInt64>) {
        kindCounters[envelope.kind][keyPath: counter] += 1
        emit(.dropped(envelope.messageID, kind: envelope.kind, cause: cause, source: source))
    }

    private func receiveProfile(_ envelope: Envelope, from sender: NodeID, on link: LinkID, now: Duration) {
        let profile: Profile
        do {
            profile = try ProfileVerifier.verify(envelope)
            guard profile.nodeID == sender, envelope.hops == 0 else { throw WireError.invalidField("profile sender") }
        } catch {
            drop(envelope, cause: .profile("\(error)"), from: .link(link), counter: \.droppedUnverifiable)
            return
        }
        kindCounters[.profile].delivered += 1
        profiles[sender] = profile
        keepSignedProfile(envelope, of: sender)
        hearClock(envelope, from: sender, now: now)
        guard let state = links[link] else { return }
        switch state.stage {
        case .keying:
            return
        case .ready:
            // The neighbour sends its profile again only while it lacks ours: ours was lost.
            resendProfile(on: link, now: now)
            return
        case .awaitingProfile(let keyed):
            links[link]?.stage = .ready(keyed)
            links[link]?.readyAt = now
        }
        switch neighbourTable.attach(link, role: state.info.role, to: sender, now: now) {
        case .newNeighbour:
            emit(.neighbourJoined(profile))
            pacing.neighbourJoined()
            catchUpOnJoinNotices(sender, now: now)
        case .returned:
            emit(.neighbourReturned(sender))
        case .additionalLink:
            break
        }
        releaseHeld(for: sender, now: now)
    }

    /// Applies the relay rules to a message or join notice from `sender` that came in through
    /// `source` (a link, or the bridge), verifying before delivery. What came from the bridge is
    /// never handed back to it.
    func flood(_ envelope: Envelope, from sender: NodeID, via source: EnvelopeSource, now: Duration) {
        // Cheap checks first, so duplicates cost no public-key work; then the sender's share
        // and the signature-check budget; then verify what can be verified before the ID enters
        // the seen cache: a forged copy is never spread and cannot shadow the genuine message.
        let reason = router.precheck(envelope, from: sender, now: now)
        // What a copy whose route fits its sender says about the sender's own link.
        // (The bridge is no link: what comes from it teaches nothing about one, nor about mesh time.)
        if reason != .badRoute, source.link != nil, teachesLinkClaim(envelope, now: now) { scheduler.observe(envelope, from: sender, now: now) }
        if let reason {
            if reason == .looped || reason == .seen { passOwnHeldMessage(envelope, now: now) }
            dropByRule(envelope, reason: reason, from: sender, via: source, now: now)
            return
        }
        // Part G: a direct message delivered here before is seen, however long ago (a second
        // mailbox's copy, a replay); a held one older than the seen cache vouches for is judged
        // against the mailbox horizon.
        if envelope.destination == nodeID, deliveries.contains(envelope.messageID, now: timestamp(at: now)) {
            dropByRule(envelope, reason: .seen, from: sender, via: source, now: now)
            return
        }
        guard router.isFresh(envelope, now: now, localWall: localWall(at: now), clock: clock)
            || isFreshHeldMessage(envelope, now: now)
        else {
            dropByRule(envelope, reason: .stale, from: sender, via: source, now: now)
            return
        }
        // Beyond its neighbour's share an envelope is never relayed; it is still delivered
        // when it is for us and the signature-check budget can spare a check for it.
        let withinShare = budgets.admit(
            sender, upstream: upstream(of: envelope, from: sender), bytes: envelope.payload.count, now: now) == .admitted
        if !withinShare {
            kindCounters[envelope.kind].overShare += 1
            guard isForUs(envelope) else {
                emit(.dropped(envelope.messageID, kind: envelope.kind, cause: .overShare, source: source))
                return
            }
        }
        if needsCheck(envelope), !budgets.takeVerification(withinShare: withinShare, now: now) {
            drop(envelope, cause: .verificationBudget, from: source, counter: \.droppedVerificationBudget)
            return
        }
        let verified: Verified
        do {
            verified = try verify(envelope)
        } catch {
            budgets.penalize(sender, now: now)
            drop(envelope, cause: .unverifiable("\(error)"), from: source, counter: \.droppedUnverifiable)
            return
        }
        if source.link != nil { hearClock(envelope, from: sender, now: now) }
        let decision = router.receive(envelope, from: sender, neighbours: relayTargets(), now: now, withheld: !withinShare)
        switch decision {
        case .drop(let reason):
            dropByRule(envelope, reason: reason, from: sender, via: source, now: now)
        case .accept(let deliver, var relay):
            // Part F: what came from the bridge never goes back to it; a request goes up only when
            // it may be relayed, an answer only the way its request came (H3).
            var uplinks = withinShare && source != .bridge
            switch verified {
            case .keyRequest(let body):
                let requestSource: RequestSource = source == .bridge ? .bridge : .neighbour(sender)
                reversePaths.record(KeyRequestKey(requester: envelope.origin, tag: body.tag), from: requestSource, now: now)
                if !considerKeyRequest(envelope, body: body, from: requestSource, now: now) {
                    relay = nil
                    uplinks = false
                }
            case .keyAnswer(let body, let profile, let signed):
                hearKeyAnswer(envelope, body: body, profile: profile, signed: signed, via: sender, now: now)
                let request = envelope.destination.map { KeyRequestKey(requester: $0, tag: body.tag) }
                switch request.flatMap({ reversePaths.source(for: $0, now: now) }) {
                case .bridge:
                    relay = nil
                case .neighbour:
                    relay = relay.map { backTheWayItCame($0, tag: body.tag, now: now) }
                    uplinks = false
                case nil:
                    break
                }
            default:
                if deliver { self.deliver(envelope, verified: verified, from: sender, via: source, now: now) }
            }
            if withinShare, envelope.kind == .joinNotice, let copy = router.relayCopy(of: envelope) {
                recentJoins.record(copy, now: now)
            }
            if uplinks, let copy = router.relayCopy(of: envelope) { uplink(copy, now: now) }
            if withinShare { _ = offerToMailbox(envelope, depositor: sender, now: now) }
            if let relay { scheduleRelay(relay, from: source, now: now) }
            flushRelays(now: now)
        case .shorterPath(let relay):
            kindCounters[envelope.kind].shorterPath += 1
            // A key request is relayed once per node: what the answer planner decided stands.
            if let relay, envelope.kind != .keyRequest { scheduleRelay(relay, from: source, now: now) }
            flushRelays(now: now)
        }
    }

    /// True when a copy may teach managed flooding its sender's link claim (PROTOCOL.md Part C,
    /// "Which copies teach a claim"): a duplicate that came within ``EngineConfiguration/claimWindow``
    /// of this node's first copy, while the message was still spreading by radio. A gateway hands
    /// on a copy from the broker only after ``EngineConfiguration/bridgeRelayHold``, later than that,
    /// so a link that exists only while the broker does is never taken for a radio link.
    private func teachesLinkClaim(_ envelope: Envelope, now: Duration) -> Bool {
        guard let first = router.seen.insertedAt(envelope.messageID, now: now) else { return false }
        return now - first <= configuration.claimWindow
    }

    /// Hands a relay to the scheduler; a gateway first holds its relay of a broker copy (Part F, F4).
    private func scheduleRelay(_ relay: RelayPlan, from source: EnvelopeSource, now: Duration) {
        guard let relay = source == .bridge ? bridgeHold.hold(relay, now: now) : relay else { return }
        scheduler.schedule(relay, neighbours: readyNeighbourCount(), now: now)
    }

    private func dropByRule(_ envelope: Envelope, reason: DropReason, from sender: NodeID, via source: EnvelopeSource, now: Duration) {
        kindCounters[envelope.kind].countDrop(reason)
        switch reason {
        case .seen:
            scheduler.heard(envelope, from: sender, now: now)
            if source.link != nil { bridgeHold.heard(envelope, from: sender) }
        // An edited copy costs its sender what a forged signature costs it.
        case .badRoute: budgets.penalize(sender, now: now)
        case .looped, .ttlSpent, .stale: break
        }
        emit(.dropped(envelope.messageID, kind: envelope.kind, cause: .rule(reason), source: source))
    }

    /// Sends a brand-new neighbour the join notices relayed in the last 30 s: one that passed
    /// a moment before this link was ready would otherwise never reach it.
    private func catchUpOnJoinNotices(_ neighbour: NodeID, now: Duration) {
        var sent = 0
        for envelope in recentJoins.catchUp(for: neighbour, now: now) where sendEnvelope(envelope, to: neighbour, now: now) {
            sent += 1
        }
        kindCounters[.joinNotice].relayed += UInt64(sent)
    }

    /// Sends every relay the scheduler says is due.
    func flushRelays(now: Duration) {
        for relay in bridgeHold.due(now: now) {
            scheduler.schedule(relay, neighbours: readyNeighbourCount(), now: now)
        }
        for scheduled in scheduler.due(now: now) {
            let plan = scheduled.plan
            var count = 0
            let encoded = plan.envelope.encoded()
            for target in plan.targets where sendOrHold(plan.envelope, to: target, now: now, encoded: encoded) == .sent {
                count += 1
            }
            kindCounters[plan.envelope.kind].relayed += UInt64(count)
            emit(.relayed(
                plan.envelope.messageID, kind: plan.envelope.kind, hops: plan.envelope.hops, count: count,
                opaque: plan.envelope.isInnerSealed))
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
                deliveries.insert(envelope.messageID, timestamp: envelope.timestamp, now: timestamp(at: now))
                actions.append(.rememberDelivery(envelope.messageID, until: deliveries.expiry(ofTimestamp: envelope.timestamp)))
                emitDelivered(envelope, text: body.text)
            } catch {
                budgets.penalize(sender, now: now)
                linkCounters.innerSealFailures += 1
                drop(envelope, cause: .directMessage("\(error)"), from: source, counter: \.droppedUnverifiable)
            }
        }
    }

    /// True when a join notice from `origin` introduces a node that cannot know our keys yet.
    private func shouldAnswerJoinNotice(from origin: NodeID) -> Bool {
        origin != nodeID && knownNodes.entries[origin]?.profile == nil && profiles[origin] == nil
    }

    private func learn(_ envelope: Envelope, keys: OriginKeys, via sender: NodeID, now: Duration) {
        knownNodes.record(envelope.origin, entry: KnownNodes.Entry(
            profile: nil, agreementKey: keys.agreement.x963, signingKey: keys.signing.x963,
            hops: envelope.hops &+ 1, lastHeard: now), via: sender)
    }

    /// The node that handed `envelope` to `sender`: `sender` itself for what it originated
    /// (hops 0), else the route entry before the sender's own (relays append their ID).
    private func upstream(of envelope: Envelope, from sender: NodeID) -> NodeID {
        guard envelope.hops > 0, envelope.route.count >= 2, envelope.route.last == sender else { return sender }
        return envelope.route[envelope.route.count - 2]
    }

    /// True for what this node delivers, which is also exactly what costs it a public-key check:
    /// join notices, broadcasts and direct messages for us (a direct message for another node
    /// travels opaque and unchecked).
    private func isForUs(_ envelope: Envelope) -> Bool {
        switch envelope.kind {
        case .keyRequest: false
        case .keyAnswer: envelope.destination == nodeID
        default: envelope.kind == .joinNotice || envelope.destination == nil || envelope.destination == nodeID
        }
    }

    /// True for what costs a public-key check here: what we deliver, and every key answer (each
    /// node on its way checks the profile it carries before relaying it). A key request costs none.
    private func needsCheck(_ envelope: Envelope) -> Bool {
        envelope.kind == .keyAnswer || isForUs(envelope)
    }

    private func emitDelivered(_ envelope: Envelope, text: String) {
        emit(.delivered(DeliveredMessage(
            messageID: envelope.messageID, origin: envelope.origin, destination: envelope.destination,
            hops: envelope.hops, timestamp: envelope.timestamp, text: text)))
    }
}
