import Flooding
import MeshLink
import MeshProtocol

extension MeshEngine {
    /// Applies the relay rules to a message, join notice, key request or key answer from
    /// `sender` that came in through `source` (a link, or the bridge): the receive path's stages
    /// in order, each going on with what it learned or stopping with a drop. Cheap checks come
    /// first, so duplicates cost no public-key work; then the sender's share and the
    /// signature-check budget; then the signature, before the ID enters the seen cache: a forged
    /// copy is never spread and cannot shadow the genuine message. What came from the bridge is
    /// never handed back to it. A feature adds a stage here, not a flag to one.
    func flood(_ envelope: Envelope, from sender: NodeID, via source: EnvelopeSource, now: Duration) {
        let arrival = Arrival(envelope: envelope, sender: sender, source: source, now: now)
        let step = precheckStage(arrival)
            .then { _ in deliveryMemoryStage(arrival) }
            .then { _ in freshnessStage(arrival) }
            .then { _ in admissionStage(arrival) }
            .then { verificationStage(arrival, $0) }
            .then { clockStage(arrival, $0) }
            .then { routingStage(arrival, $0) }
            .then { kindStage(arrival, $0) }
        switch step {
        case .next(let fanOut): fanOutStage(arrival, fanOut)
        case .stop(let stop): settle(stop, of: arrival)
        }
    }

    /// Counts and reports the drop a stage stopped `arrival` with.
    func settle(_ stop: ReceiveStop, of arrival: Arrival) {
        switch stop {
        case .rule(let reason):
            dropByRule(arrival.envelope, reason: reason, from: arrival.sender, via: arrival.source, now: arrival.now)
        case .dropped(let cause, let counter):
            if let counter { kindCounters[arrival.envelope.kind][keyPath: counter] += 1 }
            emit(.dropped(arrival.envelope.messageID, kind: arrival.envelope.kind, cause: cause, source: arrival.source))
        }
    }

    func drop(_ envelope: Envelope, cause: DropCause, from source: EnvelopeSource, counter: WritableKeyPath<KindCounters, UInt64>) {
        kindCounters[envelope.kind][keyPath: counter] += 1
        emit(.dropped(envelope.messageID, kind: envelope.kind, cause: cause, source: source))
    }

    private func dropByRule(_ envelope: Envelope, reason: DropReason, from sender: NodeID, via source: EnvelopeSource, now: Duration) {
        kindCounters[envelope.kind].countDrop(reason)
        switch reason {
        case .seen:
            scheduler.heard(envelope, from: sender, now: now)
            if source.link != nil { bridge.heard(envelope, from: sender) }
        // An edited copy costs its sender what a forged signature costs it.
        case .badRoute: budgets.penalize(sender, now: now)
        case .looped, .ttlSpent, .stale: break
        }
        emit(.dropped(envelope.messageID, kind: envelope.kind, cause: .rule(reason), source: source))
    }
}
