import Flooding
import MeshLink
import MeshProtocol

/// The receive path's checks, in the order ``MeshEngine/flood(_:from:via:now:)`` runs them.
extension MeshEngine {
    /// Precheck: route, seen, loop and hop limit (`FloodRouter.precheck`). A copy whose route
    /// fits its sender may teach managed flooding the sender's link claim first; a copy of this
    /// node's own held direct message may be passed back to its recipient (Part G).
    func precheckStage(_ arrival: Arrival) -> ReceiveStep<Void> {
        let reason = router.precheck(arrival.envelope, from: arrival.sender, now: arrival.now)
        // The bridge is no link: what comes from it teaches nothing about one, nor about mesh time.
        if reason != .badRoute, arrival.source.link != nil, teachesLinkClaim(arrival.envelope, now: arrival.now) {
            scheduler.observe(arrival.envelope, from: arrival.sender, now: arrival.now)
        }
        guard let reason else { return .next(()) }
        if reason == .looped || reason == .seen { passOwnHeldMessage(arrival.envelope, now: arrival.now) }
        return .stop(.rule(reason))
    }

    /// Delivery memory (Part G): a direct message delivered here before is seen, however long
    /// ago (a second mailbox's copy, a replay).
    func deliveryMemoryStage(_ arrival: Arrival) -> ReceiveStep<Void> {
        guard arrival.envelope.destination == nodeID,
            mailbox.delivered(arrival.envelope.messageID, meshNow: timestamp(at: arrival.now))
        else { return .next(()) }
        return .stop(.rule(.seen))
    }

    /// Freshness: within the seen cache's window of mesh time, or (a mailbox's held direct
    /// message) within the mailbox horizon.
    func freshnessStage(_ arrival: Arrival) -> ReceiveStep<Void> {
        let now = arrival.now
        guard router.isFresh(arrival.envelope, now: now, localWall: localWall(at: now), clock: clock)
            || isFreshHeldMessage(arrival.envelope, now: now)
        else { return .stop(.rule(.stale)) }
        return .next(())
    }

    /// Admission: the sender's share, then the signature-check budget. Beyond its neighbour's
    /// share an envelope is never relayed; it is still delivered when it is for us and the
    /// budget can spare a check for it.
    func admissionStage(_ arrival: Arrival) -> ReceiveStep<Admitted> {
        let (sender, now) = (arrival.sender, arrival.now)
        let withinShare = budgets.admit(
            sender, upstream: upstream(of: arrival.envelope, from: sender), bytes: arrival.envelope.payload.count,
            now: now) == .admitted
        if !withinShare {
            kindCounters[arrival.envelope.kind].overShare += 1
            guard isForUs(arrival.envelope) else { return .stop(.dropped(.overShare, counter: nil)) }
        }
        if needsCheck(arrival.envelope), !budgets.takeVerification(withinShare: withinShare, now: now) {
            return .stop(.dropped(.verificationBudget, counter: \.droppedVerificationBudget))
        }
        return .next(Admitted(withinShare: withinShare))
    }

    /// Verification: signatures and carried keys (``verify(_:)``); a failure costs the sender.
    func verificationStage(_ arrival: Arrival, _ admitted: consuming Admitted) -> ReceiveStep<Checked> {
        do {
            return .next(Checked(withinShare: admitted.withinShare, verified: try verify(arrival.envelope)))
        } catch {
            budgets.penalize(arrival.sender, now: arrival.now)
            return .stop(.dropped(.unverifiable("\(error)"), counter: \.droppedUnverifiable))
        }
    }

    /// Clock: a neighbour's own verified timestamp is its vote on mesh time (never the bridge's).
    func clockStage(_ arrival: Arrival, _ checked: consuming Checked) -> ReceiveStep<Checked> {
        if arrival.source.link != nil { hearClock(arrival.envelope, from: arrival.sender, now: arrival.now) }
        return .next(checked)
    }

    /// Routing decision: the relay rules (`FloodRouter.receive`) with the seen cache, to the
    /// relay targets; a copy over a shorter path is counted.
    func routingStage(_ arrival: Arrival, _ checked: consuming Checked) -> ReceiveStep<Routed> {
        let decision = router.receive(
            arrival.envelope, from: arrival.sender, neighbours: relayTargets(), now: arrival.now,
            withheld: !checked.withinShare)
        switch decision {
        case .drop(let reason):
            return .stop(.rule(reason))
        case .accept(let deliver, let relay):
            return .next(.accepted(checked, deliver: deliver, relay: relay))
        case .shorterPath(let relay):
            kindCounters[arrival.envelope.kind].shorterPath += 1
            return .next(.shorterPath(relay: relay))
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
}
