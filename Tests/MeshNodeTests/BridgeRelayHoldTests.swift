import Flooding
import MeshProtocol
import Testing
@testable import MeshNode

/// A gateway's hold of its relays of broker copies (docs/PROTOCOL.md F4, "Handing a broker copy to
/// the island"), on injected time.
@Suite("Bridge relay hold")
struct BridgeRelayHoldTests {
    static let origin = NodeID(testIndex: 1), gateway = NodeID(testIndex: 2)
    static let n1 = NodeID(testIndex: 11), n2 = NodeID(testIndex: 12)

    static func plan(_ id: UInt8 = 1, targets: [NodeID] = [n1, n2]) -> RelayPlan {
        let messageID = try! MessageID(bytes: Array(repeating: id, count: 16))
        return RelayPlan(
            envelope: Envelope(kind: .message, messageID: messageID, origin: origin, hops: 1, route: [origin, gateway], timestamp: 0),
            targets: targets)
    }

    /// `neighbour`'s copy of the held message, as it relayed it with `hops`.
    static func copy(_ id: UInt8 = 1, hops: UInt8, from neighbour: NodeID) -> Envelope {
        let messageID = try! MessageID(bytes: Array(repeating: id, count: 16))
        let route = hops == 1 ? [origin, neighbour] : [origin, NodeID(testIndex: 30), neighbour]
        return Envelope(kind: .message, messageID: messageID, origin: origin, hops: hops, route: route, timestamp: 0)
    }

    @Test func aRelayWaitsItsHoldThenGoesToEveryTargetThatDidNotHandItOver() {
        var hold = BridgeRelayHold(hold: .milliseconds(200))
        #expect(hold.hold(Self.plan(), now: .seconds(1)) == nil)
        #expect(hold.nextDue == .seconds(1) + .milliseconds(200))
        #expect(hold.due(now: .seconds(1) + .milliseconds(199)).isEmpty)
        hold.heard(Self.copy(hops: 1, from: Self.n1), from: Self.n1)
        let due = hold.due(now: .seconds(1) + .milliseconds(200))
        #expect(due.map(\.targets) == [[Self.n2]])
        #expect(hold.counters == .init(bridgedHeld: 1, bridgedSkipped: 1, bridgedCancelled: 0, bridgedOverflow: 0))
        #expect(hold.nextDue == nil)
    }

    @Test func aRelayEveryTargetHandedOverIsNeverSent() {
        var hold = BridgeRelayHold(hold: .milliseconds(200))
        _ = hold.hold(Self.plan(), now: .zero)
        hold.heard(Self.copy(hops: 1, from: Self.n1), from: Self.n1)
        hold.heard(Self.copy(hops: 1, from: Self.n2), from: Self.n2)
        #expect(hold.due(now: .seconds(1)).isEmpty)
        #expect(hold.counters.bridgedCancelled == 1)
    }

    @Test("A neighbour that took the message with more hops than ours would give it stays a target")
    func aLongerCopyKeepsItsSender() {
        var hold = BridgeRelayHold(hold: .milliseconds(200))
        _ = hold.hold(Self.plan(), now: .zero)
        hold.heard(Self.copy(hops: 3, from: Self.n1), from: Self.n1)  // it took it with 2 hops; our copy would give it 1
        #expect(hold.due(now: .seconds(1)).map(\.targets) == [[Self.n1, Self.n2]])
    }

    @Test("No hold, or a full one, hands the relay back to go at once", arguments: [0, 1])
    func zeroOrFullGoesAtOnce(holdMilliseconds: Int) {
        var hold = BridgeRelayHold(hold: .milliseconds(holdMilliseconds), capacity: 1)
        if holdMilliseconds > 0 { #expect(hold.hold(Self.plan(1), now: .zero) == nil) }
        #expect(hold.hold(Self.plan(2), now: .zero) == Self.plan(2))
        #expect(hold.counters.bridgedOverflow == (holdMilliseconds > 0 ? 1 : 0))
    }
}
