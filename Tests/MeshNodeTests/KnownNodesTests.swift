import MeshProtocol
import Testing
@testable import MeshNode

@Suite("Known nodes: bounded in all and per introducing neighbour")
struct KnownNodesTests {
    private func entry(heard seconds: Int64) -> KnownNodes.Entry {
        KnownNodes.Entry(profile: nil, agreementKey: [1], signingKey: [2], hops: 2, lastHeard: .seconds(seconds))
    }

    @Test("A neighbour minting identities pushes out only its own introductions", arguments: [4, 16, 50])
    func perNeighbourQuota(quota: Int) {
        var table = KnownNodes(capacity: 200, perNeighbour: quota, lifetime: .seconds(1800))
        let honest = NodeID(testIndex: 1)
        let flooder = NodeID(testIndex: 2)
        let learned = (0..<quota).map { NodeID(testIndex: 1000 + $0) }
        for (index, node) in learned.enumerated() { table.record(node, entry: entry(heard: Int64(index)), via: honest) }
        for index in 0..<5000 { table.record(NodeID(testIndex: 10_000 + index), entry: entry(heard: 100 + Int64(index)), via: flooder) }
        #expect(table.entries.count == 2 * quota)
        for node in learned { #expect(table.entries[node] != nil) }
        #expect(table.evictions == UInt64(5000 - quota))
    }

    @Test("When full, the neighbour that introduced the most loses its oldest")
    func fullTableEvictsFromLargestIntroducer() {
        var table = KnownNodes(capacity: 6, perNeighbour: 5, lifetime: .seconds(1800))
        let small = NodeID(testIndex: 1)
        let large = NodeID(testIndex: 2)
        table.record(NodeID(testIndex: 100), entry: entry(heard: 0), via: small)
        for index in 0..<5 { table.record(NodeID(testIndex: 200 + index), entry: entry(heard: 10 + Int64(index)), via: large) }
        table.record(NodeID(testIndex: 101), entry: entry(heard: 50), via: small)
        #expect(table.entries.count == 6)
        #expect(table.entries[NodeID(testIndex: 100)] != nil)
        #expect(table.entries[NodeID(testIndex: 200)] == nil)
    }

    @Test("Refreshing a node moves it to its new introducer without double counting")
    func refreshMovesIntroducer() {
        var table = KnownNodes(capacity: 10, perNeighbour: 1, lifetime: .seconds(1800))
        let node = NodeID(testIndex: 7)
        table.record(node, entry: entry(heard: 0), via: NodeID(testIndex: 1))
        table.record(node, entry: entry(heard: 1), via: NodeID(testIndex: 2))
        table.record(NodeID(testIndex: 8), entry: entry(heard: 2), via: NodeID(testIndex: 1))
        #expect(table.entries.count == 2)
        #expect(table.entries[node]?.via == NodeID(testIndex: 2))
    }

    @Test("Entries expire after their lifetime")
    func expiry() {
        var table = KnownNodes(capacity: 10, perNeighbour: 10, lifetime: .seconds(60))
        table.record(NodeID(testIndex: 1), entry: entry(heard: 0), via: NodeID(testIndex: 9))
        table.expire(now: .seconds(60))
        #expect(table.entries.isEmpty)
    }
}
