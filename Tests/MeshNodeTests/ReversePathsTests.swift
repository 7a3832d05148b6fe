import MeshProtocol
import Testing
@testable import MeshNode

@Suite("Key answers go back the way the request came")
struct ReversePathsTests {
    private let request = KeyRequestKey(requester: NodeID(testIndex: 1), tag: 9)

    @Test("The first copy's neighbour is kept for the lifetime; later copies change nothing")
    func firstCopyWins() {
        var paths = ReversePaths(capacity: 8, lifetime: .seconds(30))
        paths.record(request, from: NodeID(testIndex: 2), now: .zero)
        paths.record(request, from: NodeID(testIndex: 3), now: .seconds(1))
        #expect(paths.neighbour(for: request, now: .seconds(29)) == NodeID(testIndex: 2))
        #expect(paths.neighbour(for: request, now: .seconds(30)) == nil)
        #expect(paths.neighbour(for: KeyRequestKey(requester: NodeID(testIndex: 1), tag: 10), now: .zero) == nil)
    }

    @Test("Bounded: the oldest request is forgotten first", arguments: [1, 4, 64])
    func bounded(capacity: Int) {
        var paths = ReversePaths(capacity: capacity, lifetime: .seconds(30))
        for index in 0...capacity {
            paths.record(KeyRequestKey(requester: NodeID(testIndex: 100 + index), tag: 1), from: NodeID(testIndex: 2), now: .zero)
        }
        #expect(paths.count == capacity)
        #expect(paths.neighbour(for: KeyRequestKey(requester: NodeID(testIndex: 100), tag: 1), now: .zero) == nil)
        #expect(paths.neighbour(for: KeyRequestKey(requester: NodeID(testIndex: 100 + capacity), tag: 1), now: .zero) != nil)
    }
}
