import Flooding
import MeshProtocol

/// A gateway's relays of copies that came down from the MQTT broker, held a moment before they go
/// to its radio neighbours (docs/PROTOCOL.md F4, "Handing a broker copy to the island").
///
/// A copy from the broker reaches a gateway's radio neighbour with route `[origin, gateway]`, the
/// same as if the gateway had it over a radio link from the origin; a neighbour running managed
/// flooding takes that as the gateway's claim of a link to the origin (Part C) and skips the
/// gateway for the origin's messages, a link that lasts only while the broker does. So the
/// gateway waits `hold` and drops every neighbour that hands it the same message meanwhile: an
/// island node that has the message by radio relays it within its own window (at most 40 ms by
/// default), before the gateway's copy could teach it anything.
///
/// Bounded: at most `capacity` relays are held; beyond it a relay goes out at once (`overflow`).
struct BridgeRelayHold: Sendable {
    /// What the hold did (`relayctl stats` group `relay`, the `bridged_*` counters).
    struct Counters: Equatable, Sendable {
        /// Relays of broker copies held.
        var bridgedHeld: UInt64 = 0
        /// Radio neighbours dropped from a held relay because they handed us the message meanwhile.
        var bridgedSkipped: UInt64 = 0
        /// Held relays left with no target, so never sent.
        var bridgedCancelled: UInt64 = 0
        /// Relays sent at once because `capacity` were held.
        var bridgedOverflow: UInt64 = 0
    }

    private struct Held: Sendable {
        var plan: RelayPlan
        var dueAt: Duration
        var sequence: UInt64
    }

    /// How long a relay is held.
    let hold: Duration
    /// The most relays held at once.
    let capacity: Int
    private(set) var counters = Counters()
    private var held: [MessageID: Held] = [:]
    private var nextSequence: UInt64 = 0

    init(hold: Duration, capacity: Int = 512) {
        self.hold = hold
        self.capacity = max(1, capacity)
    }

    /// Holds `plan` until `now + hold`, or hands it back to go out at once when the hold is zero or full.
    mutating func hold(_ plan: RelayPlan, now: Duration) -> RelayPlan? {
        guard hold > .zero else { return plan }
        let id = plan.envelope.messageID
        if var existing = held[id] {
            // A copy by a shorter path: its envelope, the targets of both, the first due time.
            existing.plan = RelayPlan(envelope: plan.envelope, targets: Set(existing.plan.targets).union(plan.targets).sorted())
            held[id] = existing
            return nil
        }
        guard held.count < capacity else {
            counters.bridgedOverflow += 1
            return plan
        }
        counters.bridgedHeld += 1
        held[id] = Held(plan: plan, dueAt: now + hold, sequence: nextSequence)
        nextSequence += 1
        return nil
    }

    /// A radio neighbour handed us a copy of a held message: it has it, unless our copy would
    /// reach it with fewer hops than it took it with.
    mutating func heard(_ copy: Envelope, from neighbour: NodeID) {
        guard var entry = held[copy.messageID], Int(copy.hops) - 1 <= Int(entry.plan.envelope.hops) else { return }
        let before = entry.plan.targets.count
        entry.plan.targets.removeAll { $0 == neighbour }
        counters.bridgedSkipped += UInt64(before - entry.plan.targets.count)
        if entry.plan.targets.isEmpty {
            counters.bridgedCancelled += 1
            held[copy.messageID] = nil
        } else {
            held[copy.messageID] = entry
        }
    }

    /// Every held relay due at or before `now`, oldest first.
    mutating func due(now: Duration) -> [RelayPlan] {
        guard let next = nextDue, next <= now else { return [] }
        let ready = held.filter { $0.value.dueAt <= now }.sorted { ($0.value.dueAt, $0.value.sequence) < ($1.value.dueAt, $1.value.sequence) }
        for (id, _) in ready { held[id] = nil }
        return ready.map(\.value.plan)
    }

    /// When the next held relay is due, or nil when none is held.
    var nextDue: Duration? {
        var next: Duration?
        for entry in held.values where next.map({ entry.dueAt < $0 }) ?? true { next = entry.dueAt }
        return next
    }
}
