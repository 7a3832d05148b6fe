import Flooding
import MeshLink
import MeshProtocol

/// The receive path's last stage, and the relays it schedules.
extension MeshEngine {
    /// Fan-out: a join notice kept for neighbours that join soon, the uplink to the bridge, the
    /// offer to the mailbox, the relay to the scheduler; then every relay now due goes out.
    func fanOutStage(_ arrival: Arrival, _ fanOut: FanOut) {
        let (envelope, now) = (arrival.envelope, arrival.now)
        if fanOut.remembersJoin, let copy = router.relayCopy(of: envelope) { recentJoins.record(copy, now: now) }
        if fanOut.uplinks, let copy = router.relayCopy(of: envelope) { uplink(copy, now: now) }
        if fanOut.offersToMailbox { _ = offerToMailbox(envelope, depositor: arrival.sender, now: now) }
        if let relay = fanOut.relay { scheduleRelay(relay, from: arrival.source, now: now) }
        flushRelays(now: now)
    }

    /// Hands a relay to the scheduler; a gateway first holds its relay of a broker copy (Part F, F4).
    private func scheduleRelay(_ relay: RelayPlan, from source: EnvelopeSource, now: Duration) {
        guard let relay = bridge.relay(relay, from: source, now: now) else { return }
        scheduler.schedule(relay, neighbours: readyNeighbourCount(), now: now)
    }

    /// Sends every relay the scheduler says is due.
    func flushRelays(now: Duration) {
        for relay in bridge.due(now: now) {
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
}
