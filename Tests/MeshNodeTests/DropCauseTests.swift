import Flooding
import MeshNode
import Testing

@Suite("Drop causes")
struct DropCauseTests {
    static let all: [DropCause] = [
        .fragment("x"), .unknownKind(9), .keyExchange("x"), .unkeyed, .linkSeal("x"), .envelope("x"),
        .foreignHeartbeat, .sealedKeyExchange, .profile("x"), .unverifiable("x"), .directMessage("x"),
    ] + DropReason.allCases.map { .rule($0) }

    @Test("Every cause has its own stable snake-case code")
    func codesAreUniqueAndSnakeCase() {
        let codes = Self.all.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "_" } })
    }

    @Test("Only key exchange and profile problems count as handshake failures", arguments: all)
    func handshakeFailures(cause: DropCause) {
        let expected = [DropCause.keyExchange("x"), .profile("x"), .sealedKeyExchange].contains(cause)
        #expect(cause.isHandshakeFailure == expected)
    }
}
