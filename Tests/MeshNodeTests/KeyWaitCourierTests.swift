import Foundation
import Mailbox
import MailboxCourier
import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol
import Testing

/// What the courier does with this node's own messages waiting for keys (PROTOCOL.md H4, "Waiting
/// for a key"): an engine pair, A with a mailbox store, on injected time.
@Suite struct KeyWaitCourierTests {
    static func store() throws -> MailboxStore {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("keywait-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return try MailboxStore.open(path: dir.appendingPathComponent("mailbox.db").path, limits: MailboxLimits(), now: 0).store
    }

    static func tick(_ courier: MailboxCourier, _ pair: EnginePair) {
        _ = courier.tick(engine: pair.a, now: pair.now, perform: {
            pair.performAtA($0)
            return true
        })
    }

    @Test func aMessageWhoseKeyIsKnownGoesOutOnceSealedAndLeavesTheStore() throws {
        let pair = try EnginePair()
        pair.advance(.seconds(1))
        let courier = MailboxCourier(store: try Self.store())
        var generator = SystemRandomNumberGenerator()
        let id = MessageID(random: &generator)
        #expect(courier.store.holdForKey("kept for B", messageID: id, target: pair.b.nodeID, now: pair.a.meshTime(at: pair.now)) == .held)
        Self.tick(courier, pair)
        Self.tick(courier, pair)
        #expect(pair.delivered.map(\.text) == ["kept for B"])
        #expect(pair.delivered.first?.messageID == id)
        #expect(courier.store.keyWait.count == 0 && courier.store.keyWait.counters.sent == 1)
    }

    /// Every target's lookup is due (as after a restart), but the courier keeps at most two in
    /// flight, so its requests stay within a neighbour's request budget.
    @Test func dueLookupsStartAtMostTwoAtATimeOnTheSchedule() throws {
        let pair = try EnginePair()
        pair.advance(.seconds(1))
        let courier = MailboxCourier(store: try Self.store())
        let start = pair.a.meshTime(at: pair.now)
        var generator = SystemRandomNumberGenerator()
        for index in 0..<5 {
            let target = try NodeIdentity.generate().nodeID
            _ = courier.store.holdForKey("to \(index)", messageID: MessageID(random: &generator), target: target, now: start)
        }
        Self.tick(courier, pair)
        #expect(pair.a.pendingLookups.lookups.isEmpty, "the lookup at writing was the runtime's; the next is 30 s later")
        pair.advance(.seconds(30))
        Self.tick(courier, pair)
        #expect(pair.a.pendingLookups.lookups.count == MailboxCourier.lookupsInFlight)
        Self.tick(courier, pair)
        #expect(courier.store.keyWait.counters.lookupRetries == 2)
        pair.advance(.seconds(11))  // those two time out unanswered
        Self.tick(courier, pair)
        #expect(courier.store.keyWait.counters.lookupRetries == 4)
        #expect(courier.store.keyWait.count == 5)
    }
}
