import ControlProtocol
import MeshTestSupport
import Testing
@testable import RelayctlKit

@Suite("naming a node or message on relayctl's command line (IDResolver)")
struct IDResolverTests {
    static let kitchen = "699d2fae11112222333344445555aaaa"
    static let kettle = "699d2fb0aaaabbbbccccddddeeeeffff"
    static let stairs = "5c0e7a1d9b3f4e2a8c6d0b1f3e5a7c9d"
    static let resolver = IDResolver(kind: "node", candidates: [
        .init(id: kitchen, name: "Kitchen"), .init(id: kettle, name: "kettle"), .init(id: stairs, name: "Stairs"),
        .init(id: "00112233445566778899aabbccddeeff", name: "Twin"), .init(id: "ffeeddccbbaa99887766554433221100", name: "Twin"),
    ])

    @Test("a full ID, a unique prefix of 4 or more hex digits, or a name names one node", arguments: [
        (kitchen, kitchen), (kitchen.uppercased(), kitchen), ("699d2fae", kitchen), ("699D2FB", kettle), ("5c0e", stairs),
        ("Kitchen", kitchen), ("kitchen", kitchen), ("STAIRS", stairs), ("kettle", kettle),
        // A full ID is taken as it is, known or not: lookup works for nodes not in peers.
        ("a0a1a2a3a4a5a6a7a8a9aaabacadaeaf", "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"),
    ])
    func resolves(_ typed: String, _ expected: String) throws {
        #expect(try Self.resolver.resolve(typed) == expected)
    }

    @Test func anAmbiguousPrefixOrNameListsTheCandidates() {
        #expect(throws: IDResolutionError.ambiguous(kind: "node", text: "699d", candidates: ["699d2fae (Kitchen)", "699d2fb0 (kettle)"])) {
            try Self.resolver.resolve("699d")
        }
        let twins = thrownError(IDResolutionError.self) { try Self.resolver.resolve("Twin") }
        #expect(twins?.description == "'Twin' matches 2 nodes: 00112233 (Twin), ffeeddcc (Twin); type more of the ID")
    }

    @Test func tooShortUnknownAndEmptyAreErrorsThatSayWhatToType() {
        #expect(throws: IDResolutionError.tooShort(kind: "node", text: "699")) { try Self.resolver.resolve("699") }
        #expect(throws: IDResolutionError.noMatch(kind: "node", text: "abcd")) { try Self.resolver.resolve("abcd") }
        #expect(throws: IDResolutionError.noMatch(kind: "node", text: "Garden")) { try Self.resolver.resolve("Garden") }
        #expect(throws: IDResolutionError.empty(kind: "node")) { try Self.resolver.resolve("") }
        #expect(IDResolutionError.tooShort(kind: "node", text: "699").description.contains("at least 4 hex digits"))
        #expect(IDResolutionError.noMatch(kind: "node", text: "x").description.contains("relayctl peers"))
    }

    @Test func aNameThatLooksLikeHexMatchesBothWays() {
        let resolver = IDResolver(kind: "node", candidates: [.init(id: Self.kitchen, name: "beef"), .init(id: "beef0000000000000000000000000000")])
        #expect(throws: IDResolutionError.ambiguous(kind: "node", text: "beef", candidates: ["beef0000", "699d2fae (beef)"])) {
            try resolver.resolve("beef")
        }
    }

    @Test func peersGiveNeighboursThenRemoteNodesOnce() throws {
        let peers = PeersReport(
            neighbours: [NeighbourReport(nodeID: .init(hex: Self.kitchen)!, profile: nil, links: [], lastHeardSecondsAgo: 1)],
            remote: [RemoteNodeReport(nodeID: .init(hex: Self.stairs)!, name: "Stairs", hops: 3, lastHeardSecondsAgo: 2),
                     RemoteNodeReport(nodeID: .init(hex: Self.kitchen)!, name: nil, hops: 1, lastHeardSecondsAgo: 2)])
        let resolver = IDResolver(peers: peers)
        #expect(resolver.candidates.map(\.id) == [Self.kitchen, Self.stairs])
        #expect(try resolver.resolve("stairs") == Self.stairs)
        #expect(try resolver.resolve("699d2") == Self.kitchen)
    }
}
