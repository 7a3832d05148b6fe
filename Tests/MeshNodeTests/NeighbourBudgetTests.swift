import MeshProtocol
import Testing
@testable import MeshNode

@Suite("Neighbour budgets: relay shares and the signature-check budget")
struct NeighbourBudgetTests {
    private static let limits = BudgetLimits(
        messagesPerSecond: 20, messageBurst: 100, bytesPerSecond: 1000, byteBurst: 5000,
        verificationsPerSecond: 50, verificationBurst: 60, failedVerificationPenalty: 10)

    @Test("One neighbour's flood spends only its own share", arguments: [1, 3, 8])
    func sharesAreSeparate(neighbours: Int) throws {
        var budgets = NeighbourBudgets(limits: Self.limits)
        let ids = (0..<neighbours).map { NodeID(testIndex: $0) }
        var admitted = 0
        for _ in 0..<1000 where budgets.admit(ids[0], upstream: ids[0], bytes: 10, now: .zero) == .admitted { admitted += 1 }
        #expect(admitted == 100)
        for other in ids.dropFirst() { let admission = budgets.admit(other, upstream: other, bytes: 10, now: .zero); #expect(admission == .admitted) }
        let flooderAgain = budgets.admit(ids[0], upstream: ids[0], bytes: 10, now: .zero)
        #expect(flooderAgain == .overMessageShare)
        let flooderLater = budgets.admit(ids[0], upstream: ids[0], bytes: 10, now: .milliseconds(50))
        #expect(flooderLater == .admitted)
    }

    @Test("What a neighbour relays from one upstream spends that upstream's share, not the others'")
    func upstreamSharesAreSeparate() {
        var budgets = NeighbourBudgets(limits: Self.limits)
        let relay = NodeID(testIndex: 1)
        let flooder = NodeID(testIndex: 2)
        var admitted = 0
        for _ in 0..<1000 where budgets.admit(relay, upstream: flooder, bytes: 1, now: .zero) == .admitted { admitted += 1 }
        #expect(admitted == 100)
        let own = budgets.admit(relay, upstream: relay, bytes: 1, now: .zero)
        #expect(own == .admitted)
        // Invented upstreams get no more than the neighbour's total (two upstream shares).
        var invented = 0
        for index in 0..<1000 where budgets.admit(relay, upstream: NodeID(testIndex: 100 + index), bytes: 1, now: .zero) == .admitted {
            invented += 1
        }
        #expect(admitted + 1 + invented == 200)
    }

    @Test("Bytes are a share of their own; a refused byte take spends no message token")
    func byteShare() {
        var budgets = NeighbourBudgets(limits: Self.limits)
        let node = NodeID(testIndex: 1)
        let first = budgets.admit(node, upstream: node, bytes: 4000, now: .zero)
        #expect(first == .admitted)
        let second = budgets.admit(node, upstream: node, bytes: 4000, now: .zero)
        #expect(second == .overByteShare)
        let smaller = budgets.admit(node, upstream: node, bytes: 1000, now: .zero)
        #expect(smaller == .admitted)
    }

    @Test("Failed checks cost the sender message tokens")
    func penalty() {
        var budgets = NeighbourBudgets(limits: Self.limits)
        let node = NodeID(testIndex: 2)
        let beforePenalty = budgets.admit(node, upstream: node, bytes: 1, now: .zero)
        #expect(beforePenalty == .admitted)
        for _ in 0..<20 { budgets.penalize(node, now: .zero) }  // 200 tokens: the whole total share
        let afterPenalty = budgets.admit(node, upstream: node, bytes: 1, now: .zero)
        #expect(afterPenalty == .overMessageShare)
    }

    @Test("A penalty reaches a neighbour whose first envelope was the offence (an edited route), and only it")
    func penaltyBeforeAnyAdmission() {
        var budgets = NeighbourBudgets(limits: Self.limits)
        let editor = NodeID(testIndex: 3), other = NodeID(testIndex: 4)
        for _ in 0..<20 { budgets.penalize(editor, now: .zero) }
        let edited = budgets.admit(editor, upstream: editor, bytes: 1, now: .zero)
        #expect(edited == .overMessageShare)
        let honest = budgets.admit(other, upstream: other, bytes: 1, now: .zero)
        #expect(honest == .admitted)
    }

    @Test("The signature-check budget is shared, refills at its rate, and keeps half for neighbours within their share")
    func verificationBudget() {
        var budgets = NeighbourBudgets(limits: Self.limits)
        var beyondShare = 0
        while budgets.takeVerification(withinShare: false, now: .zero) { beyondShare += 1 }
        #expect(beyondShare == 30)
        var withinShare = 0
        while budgets.takeVerification(withinShare: true, now: .zero) { withinShare += 1 }
        #expect(withinShare == 30)
        let afterRefill = budgets.takeVerification(withinShare: true, now: .milliseconds(20))
        #expect(afterRefill)
    }

    @Test("Shares of nodes that are no longer neighbours are forgotten")
    func keepOnly() {
        var budgets = NeighbourBudgets(limits: Self.limits)
        for index in 0..<5 { _ = budgets.admit(NodeID(testIndex: index), upstream: NodeID(testIndex: index), bytes: 1, now: .zero) }
        budgets.keep(only: [NodeID(testIndex: 1)])
        #expect(budgets.count == 1)
    }
}

extension NodeID {
    /// A node ID for tests: the index in the last bytes.
    init(testIndex: Int) {
        self = try! NodeID(bytes: [UInt8](repeating: 0xA0, count: 12) + withUnsafeBytes(of: UInt32(testIndex).bigEndian) { Array($0) })
    }
}
