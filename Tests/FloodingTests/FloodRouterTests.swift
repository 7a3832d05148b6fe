import MeshProtocol
import Testing
@testable import Flooding

private func node(_ seed: UInt8) -> NodeID { try! NodeID(bytes: Array(repeating: seed, count: 16)) }
private func messageID(_ seed: UInt64) -> MessageID {
    try! MessageID(bytes: (0..<16).map { UInt8(truncatingIfNeeded: seed >> (($0 % 8) * 8)) &+ UInt8($0) })
}

private let a = node(0xA), b = node(0xB), c = node(0xC), d = node(0xD), e = node(0xE)

private func envelope(_ kind: MessageKind, id: UInt64 = 1, origin: NodeID = a, to destination: NodeID? = nil,
                      hops: UInt8 = 0, route: [NodeID]? = nil) -> Envelope {
    Envelope(kind: kind, messageID: messageID(id), origin: origin, destination: destination, hops: hops,
             route: route ?? [origin], timestamp: 0)
}

@Test("Hop limits: messages travel 3 hops, join notices 2, link-local kinds 1",
      arguments: [(MessageKind.message, 3), (.joinNotice, 2), (.heartbeat, 1), (.keyExchange, 1), (.profile, 1)])
func hopLimitReach(kind: MessageKind, reach: Int) {
    // Walk a line: the message is received with hops 0, 1, 2, ... until a node drops it or does not relay.
    let limits = HopLimits.relayChatDefaults
    var travelled = 0
    var hops: UInt8 = 0
    while limits.accepts(kind, hops: hops) {
        travelled += 1
        guard limits.allowsRelay(kind, receivedHops: hops) else { break }
        hops += 1
    }
    #expect(travelled == reach)
}

@Test("A relay excludes the sender, the route and the origin, appends itself and adds a hop")
func relayPlan() throws {
    var router = FloodRouter(localNode: c)
    let decision = router.receive(envelope(.message, hops: 1, route: [a, b]), from: b, neighbours: [a, b, d, e], now: .zero)
    guard case .accept(true, let plan?) = decision else { Issue.record("expected a relay, got \(decision)"); return }
    #expect(plan.targets == [d, e])
    #expect(plan.envelope.hops == 2)
    #expect(plan.envelope.route == [a, b, c])
}

/// Each case: (name, envelope, sender, expected decision summary).
private let dropCases: [(String, Envelope, DropReason)] = [
    ("own origin echoed back", envelope(.message, origin: c, hops: 1, route: [c, d]), .looped),
    ("own ID on the route", envelope(.message, hops: 2, route: [a, c, d]), .looped),
    ("message hop limit spent", envelope(.message, hops: 3, route: [a, b, e, d]), .ttlSpent),
    ("join hop limit spent", envelope(.joinNotice, hops: 2, route: [a, b, d]), .ttlSpent),
    ("relayed heartbeat", envelope(.heartbeat, hops: 1, route: [a, d]), .ttlSpent),
    ("route not ending with its sender", envelope(.message, hops: 1, route: [a, b]), .badRoute),
    ("hops and route disagree", envelope(.message, hops: 2, route: [a, d]), .badRoute),
    ("route not starting with the origin", envelope(.message, hops: 1, route: [b, d]), .badRoute),
    ("a node twice on the route", envelope(.message, hops: 2, route: [a, d, d]), .badRoute),
    ("no route", envelope(.message, hops: 0, route: []), .badRoute),
    ("origin's own send relayed unchanged", envelope(.message, hops: 0, route: [a]), .badRoute),
]

@Test("Drops are decided by rule", arguments: dropCases)
func drops(name: String, envelope: Envelope, reason: DropReason) {
    var router = FloodRouter(localNode: c)
    let decision = router.receive(envelope, from: d, neighbours: [b, d], now: .zero)
    #expect(decision == .drop(reason))
    #expect(router.seen.size == 0)
}

@Test("A second copy is dropped as seen, until the ID expires")
func seenDrop() {
    var router = FloodRouter(localNode: c, seen: SeenCache(capacity: 8, lifetime: .seconds(10)))
    let first = envelope(.message, hops: 0)
    guard case .accept = router.receive(first, from: a, neighbours: [a, d], now: .zero) else {
        Issue.record("first copy not accepted"); return
    }
    let relayed = envelope(.message, hops: 1, route: [a, d])
    let second = router.receive(relayed, from: d, neighbours: [a, d], now: .seconds(5))
    #expect(second == .drop(.seen))
    if case .drop = router.receive(relayed, from: d, neighbours: [a, d], now: .seconds(11)) {
        Issue.record("expired ID still dropped")
    }
}

@Test("Direct messages are delivered only at their destination and not relayed past it")
func directMessages() {
    var relay = FloodRouter(localNode: b)
    guard case .accept(false, let plan?) = relay.receive(envelope(.message, to: c), from: a, neighbours: [a, c], now: .zero) else {
        Issue.record("relay did not forward opaque"); return
    }
    #expect(plan.targets == [c])
    var destination = FloodRouter(localNode: c)
    let atDestination = destination.receive(plan.envelope, from: b, neighbours: [b, d], now: .zero)
    #expect(atDestination == .accept(deliver: true, relay: nil))
}

@Test("Heartbeats are delivered but never relayed")
func heartbeatsAreLinkLocal() {
    var router = FloodRouter(localNode: b)
    let decision = router.receive(envelope(.heartbeat), from: a, neighbours: [a, c, d], now: .zero)
    #expect(decision == .accept(deliver: true, relay: nil))
}
