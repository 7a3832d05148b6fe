import Flooding
import MeshProtocol
import Testing
@testable import MeshNode

/// The byte vectors and decision table of docs/PROTOCOL.md Part G.
@Suite("Part G vectors: the mailbox's copy and the recipient's freshness rule")
struct MailboxCopyTests {
    private static let held = "01020302101112131415161718191a1b1c1d1e1fa1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c30000019b76daa80000000004eeeeeeee03a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5"
    private static let copy = "01020301101112131415161718191a1b1c1d1e1fa1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c30000019b76daa80000000004eeeeeeee02a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4"
    private static let own = "01020300101112131415161718191a1b1c1d1e1fd4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c30000019b76daa80000000004eeeeeeee01d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4"
    private static let mailbox = NodeID(hex: String(repeating: "d4", count: 16))!

    private static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test("A held message is handed over with hops 1 and route [origin, mailbox], byte for byte as documented")
    func handOverCopy() throws {
        let held = try Envelope(decoding: Self.bytes(Self.held))
        #expect(held.handedOver(byMailbox: Self.mailbox).encoded() == Self.bytes(Self.copy))
        #expect(held.handedOver(byMailbox: Self.mailbox).routeFits(handedOverBy: Self.mailbox))
    }

    @Test("The mailbox's own message goes out with hops 0 and route [mailbox]")
    func ownCopy() throws {
        var own = try Envelope(decoding: Self.bytes(Self.copy))
        own.origin = Self.mailbox
        #expect(own.handedOver(byMailbox: Self.mailbox).encoded() == Self.bytes(Self.own))
    }

    private static let now: UInt64 = 1_767_312_000_000

    /// (T, vouched_since, already delivered, accepted) for a message addressed to this node.
    @Test("The recipient's rule, row by row", arguments: [
        (timestamp: UInt64(1_767_301_200_000), vouched: UInt64(1_767_139_200_000), delivered: false, accepted: true),
        (timestamp: 1_767_301_200_000, vouched: 1_767_139_200_000, delivered: true, accepted: false),
        (timestamp: 1_767_225_599_999, vouched: 1_767_139_200_000, delivered: false, accepted: false),
        (timestamp: 1_767_312_120_001, vouched: 1_767_139_200_000, delivered: false, accepted: false),
        (timestamp: 1_767_301_200_000, vouched: 1_767_308_400_000, delivered: false, accepted: false),
    ])
    func recipientRule(timestamp: UInt64, vouched: UInt64, delivered: Bool, accepted: Bool) throws {
        var memory = DirectDeliveryMemory(vouchedSince: vouched)
        let id = try MessageID(bytes: [UInt8](repeating: 0x10, count: 16))
        if delivered { memory.insert(id, timestamp: timestamp, now: Self.now - 1) }
        #expect((!memory.contains(id, now: Self.now) && memory.accepts(timestamp: timestamp, now: Self.now)) == accepted)
    }

    @Test("A sealed direct message for another node, held 20 h, passes step 4 at a relay")
    func relayRule() {
        let memory = DirectDeliveryMemory(vouchedSince: Self.now)
        #expect(memory.withinHorizon(timestamp: 1_767_240_000_000, now: Self.now))
        #expect(!memory.withinHorizon(timestamp: Self.now - 86_400_001, now: Self.now))
    }
}
