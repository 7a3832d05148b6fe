import MeshProtocol
import Testing
@testable import Flooding

private func node(_ seed: UInt8) -> NodeID { try! NodeID(bytes: Array(repeating: seed, count: 16)) }
private func messageID(_ seed: UInt8) -> MessageID { try! MessageID(bytes: Array(repeating: seed, count: 16)) }

private let origin = node(0x01), sender = node(0x02), us = node(0x03)
private let t1 = node(0x11), t2 = node(0x12), t3 = node(0x13), t4 = node(0x14)

/// A relay plan as the router makes it at `us`: received from `sender` with `hops`.
private func plan(id: UInt8 = 1, hops: UInt8 = 1, targets: [NodeID] = [t1, t2, t3, t4]) -> RelayPlan {
    let route = hops == 1 ? [origin, sender, us] : [sender, us]
    let sent = hops == 1 ? route : [sender, us]
    return RelayPlan(
        envelope: Envelope(kind: .message, messageID: messageID(id), origin: hops == 1 ? origin : sender, hops: hops,
                           route: sent, timestamp: 0),
        targets: targets)
}

/// A duplicate as `from` relayed it: the origin's copy passed on with `hops` (route origin … from).
private func copy(id: UInt8 = 1, from neighbour: NodeID, hops: UInt8, via: [NodeID] = []) -> Envelope {
    Envelope(kind: .message, messageID: messageID(id), origin: origin, hops: hops, route: [origin] + via + [neighbour],
             timestamp: 0)
}

private func scheduler(_ parameters: ManagedFloodingParameters = ManagedFloodingParameters(slot: .milliseconds(10), maxWindow: .milliseconds(100)))
    -> ManagedRelayScheduler<SplitMix64>
{
    ManagedRelayScheduler(parameters: parameters, random: SplitMix64(seed: 9))
}

@Suite("Managed relay scheduler")
struct ManagedRelaySchedulerTests {
    @Test("Sparse nodes relay at once to every target, like plain flooding", arguments: [1, 2])
    func sparseRelaysAtOnce(neighbours: Int) {
        var managed = scheduler()
        managed.schedule(plan(), neighbours: neighbours, now: .seconds(1))
        #expect(managed.nextDue == .seconds(1))
        let due = managed.due(now: .seconds(1))
        #expect(due.map(\.plan.targets) == [[t1, t2, t3, t4]])
        #expect(managed.counters.delayed == 0 && managed.counters.scheduled == 1)
    }

    @Test("A dense node holds a relay within a window that grows with its neighbours, capped")
    func denseRelayWaitsWithinWindow() {
        var managed = scheduler()
        #expect(managed.window(neighbours: 2) == .zero)
        #expect(managed.window(neighbours: 5) == .milliseconds(50))
        #expect(managed.window(neighbours: 30) == .milliseconds(100))
        for id in UInt8(1)...40 { managed.schedule(plan(id: id), neighbours: 5, now: .seconds(1)) }
        let dues = (1...40).compactMap { _ in managed.nextDue.map { due in (due, managed.due(now: due).count) } }
        #expect(dues.allSatisfy { $0.0 >= .seconds(1) && $0.0 <= .seconds(1) + .milliseconds(50) })
        #expect(dues.map(\.1).reduce(0, +) == 40)
        #expect(Set(dues.map(\.0)).count > 1, "delays must differ")
        #expect(managed.counters.delayed == 40 && managed.pendingCount == 0)
    }

    @Test("Nothing is due before its time, and due relays come out in due order")
    func dueOrder() {
        var managed = scheduler()
        for id in UInt8(1)...10 { managed.schedule(plan(id: id), neighbours: 8, now: .zero) }
        #expect(managed.due(now: .zero - .milliseconds(1)).isEmpty)
        let all = managed.due(now: .seconds(1))
        #expect(all.count == 10)
        #expect(all.map(\.dueAt) == all.map(\.dueAt).sorted())
        #expect(managed.nextDue == nil)
    }

    @Test("A target heard sending the ID with no more hops than ours would give it is dropped")
    func heardTargetIsPruned() {
        var managed = scheduler()
        managed.schedule(plan(hops: 1), neighbours: 6, now: .zero)
        managed.heard(copy(from: t1, hops: 2, via: [sender]), from: t1, now: .milliseconds(1))  // t1 took it with 1 hop
        managed.heard(copy(from: t2, hops: 3, via: [sender, node(0x30)]), from: t2, now: .milliseconds(1))  // t2 took it with 2: ours (1) is shorter
        let due = managed.due(now: .seconds(1))
        #expect(due.map(\.plan.targets) == [[t2, t3, t4]])
        #expect(managed.counters.targetsPruned == 1)
    }

    @Test("A target is skipped when it said it takes copies from a neighbour that relayed with at most our hops")
    func claimsPrune() {
        var managed = scheduler()
        // Earlier copies: t1 took one from the sender, t4 took one from t3 (each its own word).
        managed.observe(copy(id: 9, from: t1, hops: 2, via: [sender]), from: t1, now: .zero)
        managed.observe(copy(id: 8, from: t4, hops: 2, via: [t3]), from: t4, now: .zero)
        managed.schedule(plan(hops: 1), neighbours: 6, now: .seconds(1))
        #expect(managed.counters.targetsPruned == 1, "t1 got it from the sender, whose copy we relay")
        // t3 relays with 1 hop (as good as ours): t4 takes copies from t3.
        managed.heard(copy(from: t3, hops: 1), from: t3, now: .seconds(1))
        let due = managed.due(now: .seconds(2))
        #expect(due.map(\.plan.targets) == [[t2]])
    }

    @Test("Route entries before the sender, and claims about other nodes' links, never make a target skipped")
    func routesTeachNothingAboutOthers() {
        var managed = scheduler()
        // t3 says t1 and t2 relayed before it, and that t4 handed it a copy: only the last is its own word,
        // and it is about t3's link, so it can only make us skip t3.
        managed.observe(copy(id: 9, from: t3, hops: 3, via: [t1, t2]), from: t3, now: .zero)
        managed.observe(copy(id: 8, from: t3, hops: 2, via: [t4]), from: t3, now: .zero)
        // A route that does not end with its sender claims nothing at all.
        managed.observe(copy(id: 7, from: sender, hops: 1), from: t1, now: .zero)
        managed.schedule(plan(hops: 1), neighbours: 6, now: .seconds(1))
        #expect(managed.counters.targetsPruned == 0)
        // t3's duplicate puts t1 and t2 on its route: they stay targets; t3 (hops 2, ours 1: as good) goes.
        managed.heard(copy(from: t3, hops: 2, via: [t1]), from: t3, now: .seconds(1))
        managed.heard(copy(from: t4, hops: 2, via: [t2]), from: t4, now: .seconds(1))
        let due = managed.due(now: .seconds(2))
        #expect(due.map(\.plan.targets) == [[t1, t2]])
    }

    @Test("A neighbour that says a relay handed it copies is skipped after that relay sent it the message")
    func selfClaimSkipsOnlyTheClaimant() {
        var managed = scheduler()
        managed.observe(copy(id: 9, from: t3, hops: 2, via: [sender]), from: t3, now: .zero)
        managed.schedule(plan(hops: 1), neighbours: 6, now: .seconds(1))
        let due = managed.due(now: .seconds(2))
        #expect(due.map(\.plan.targets) == [[t1, t2, t4]])
    }

    @Test("A claim is forgotten after its lifetime")
    func claimsExpire() {
        var claims = LinkClaims(capacity: 4, perClaimant: 2, lifetime: .seconds(10))
        claims.learn(route: [t1, t2, t3], from: t3, now: .zero)
        #expect(claims.claims(t3, linkedTo: t2, now: .seconds(9)))
        #expect(!claims.claims(t2, linkedTo: t3, now: .zero), "t2 said nothing")
        #expect(!claims.claims(t3, linkedTo: t1, now: .zero), "t1 did not hand t3 this copy")
        #expect(!claims.claims(t3, linkedTo: t2, now: .seconds(10)))
    }

    @Test("Link claims keep their caps, dropping the least recently made", arguments: [1, 2, 3])
    func claimsAreBounded(perClaimant: Int) {
        var claims = LinkClaims(capacity: 2, perClaimant: perClaimant, lifetime: .seconds(100))
        let predecessors = [t2, t3, t4, sender]
        for (index, node) in predecessors.enumerated() {
            claims.learn(route: [node, t1], from: t1, now: .seconds(Int64(index)))
        }
        let kept = predecessors.filter { claims.claims(t1, linkedTo: $0, now: .seconds(5)) }
        #expect(kept == Array(predecessors.suffix(perClaimant)))
        claims.learn(route: [t1, t2], from: t2, now: .seconds(6))
        claims.learn(route: [t1, t3], from: t3, now: .seconds(7))
        #expect(claims.count == 2)
        #expect(!claims.claims(t1, linkedTo: sender, now: .seconds(7)), "the least recently heard claimant went first")
    }

    @Test("A held relay is cancelled once k neighbours relayed it with at most our hops, or no target is left")
    func cancelAfterCopies() {
        var parameters = ManagedFloodingParameters(slot: .milliseconds(10), maxWindow: .milliseconds(100))
        parameters.cancelAfterCopies = 2
        var managed = scheduler(parameters)
        let many = (0x20...0x27).map { node(UInt8($0)) }
        managed.schedule(plan(id: 1, targets: many), neighbours: 9, now: .zero)
        managed.heard(copy(id: 1, from: many[0], hops: 1), from: many[0], now: .zero)
        #expect(managed.pendingCount == 1)
        managed.heard(copy(id: 1, from: many[1], hops: 1), from: many[1], now: .zero)
        #expect(managed.pendingCount == 0 && managed.counters.cancelled == 1)

        var pruning = scheduler()
        pruning.schedule(plan(id: 2, targets: [t1]), neighbours: 5, now: .zero)
        pruning.heard(copy(id: 2, from: t1, hops: 1), from: t1, now: .zero)
        #expect(pruning.due(now: .seconds(1)).isEmpty && pruning.counters.cancelled == 1)
    }

    @Test("Relays from one neighbour fill at most a quarter of the held ones: beyond it they go out at once, others still wait")
    func perSenderCap() {
        var managed = scheduler(ManagedFloodingParameters(slot: .milliseconds(10), maxWindow: .milliseconds(100), maxPending: 16))
        #expect(managed.maxPendingPerSender == 4)
        for id in UInt8(1)...10 { managed.schedule(plan(id: id), neighbours: 8, now: .zero) }
        #expect(managed.pendingCount == 4 && managed.counters.overflow == 6)
        var other = plan(id: 50)
        other.envelope.route = [origin, t4, us]
        other.targets.removeAll { $0 == t4 }
        managed.schedule(other, neighbours: 8, now: .zero)
        #expect(managed.pendingCount == 5 && managed.counters.overflow == 6, "another neighbour's relay is still held")
        // Once the first neighbour's relays leave, its next one is held again.
        _ = managed.due(now: .seconds(1))
        managed.schedule(plan(id: 60), neighbours: 8, now: .seconds(1))
        #expect(managed.pendingCount == 1)
    }

    @Test("Beyond its cap the scheduler sends at once and counts the overflow")
    func overflowSendsAtOnce() {
        var managed = scheduler(ManagedFloodingParameters(slot: .milliseconds(10), maxWindow: .milliseconds(100), maxPending: 2))
        for id in UInt8(1)...5 {
            // Each from another neighbour, so only the overall cap applies.
            var relay = plan(id: id)
            relay.envelope.route = [origin, node(0x40 + id), us]
            managed.schedule(relay, neighbours: 8, now: .zero)
        }
        #expect(managed.pendingCount == 2)
        #expect(managed.counters.overflow == 3)
        #expect(managed.due(now: .zero).count >= 3)
    }

    @Test("A second plan for a held ID (a shorter path) takes its envelope and joins its targets")
    func shorterPathJoinsHeldPlan() {
        var managed = scheduler()
        managed.schedule(plan(id: 1, hops: 2, targets: [t1, t2]), neighbours: 8, now: .zero)
        managed.schedule(plan(id: 1, hops: 1, targets: [t2, t3]), neighbours: 8, now: .zero)
        let due = managed.due(now: .seconds(1))
        #expect(due.count == 1)
        #expect(due.first?.plan.targets == [t1, t2, t3] && due.first?.plan.envelope.hops == 1)
    }
}

@Suite("Managed relay scheduler coverage")
struct ManagedRelayCoverageTests {
    @Test("With coverage 2 a target is skipped only once two relaying nodes are known linked to it")
    func coverageTwoKeepsASecondCopy() {
        var managed = ManagedRelayScheduler(
            parameters: ManagedFloodingParameters(slot: .milliseconds(10), maxWindow: .milliseconds(100), coverage: 2),
            random: SplitMix64(seed: 1))
        // t1 says it took copies from the sender and from t3.
        managed.observe(copy(id: 9, from: t1, hops: 2, via: [sender]), from: t1, now: .zero)
        managed.observe(copy(id: 8, from: t1, hops: 2, via: [t3]), from: t1, now: .zero)
        managed.schedule(plan(hops: 1, targets: [t1, t2]), neighbours: 6, now: .seconds(1))
        #expect(managed.counters.targetsPruned == 0, "only the sender is known to be linked to t1")
        managed.heard(copy(from: t3, hops: 1), from: t3, now: .seconds(1))
        let due = managed.due(now: .seconds(2))
        #expect(due.map(\.plan.targets) == [[t2]], "t1 takes copies from the sender and from t3, who relayed")
    }
}
