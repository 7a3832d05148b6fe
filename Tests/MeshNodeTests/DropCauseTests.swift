import Flooding
import Foundation
import MeshNode
import Testing

@Suite("Drop causes")
struct DropCauseTests {
    static let all: [DropCause] = [
        .fragment("x"), .unknownKind(9), .keyExchange("x"), .unkeyed, .linkSeal("x"), .envelope("x"),
        .foreignHeartbeat, .sealedKeyExchange, .profile("x"), .unverifiable("x"), .directMessage("x"),
        .overShare, .verificationBudget,
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

    @Test("docs/CONTROL.md lists every drop cause code, and no other")
    func controlDocumentListsEveryCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/CONTROL.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "### Drop causes").dropFirst().first)
        let table = section.components(separatedBy: "\n#").first ?? section
        let documented = Set(table.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { line in
            line.split(separator: "`").dropFirst().first.map(String.init)
        })
        #expect(documented == Set(Self.all.map(\.code)))
    }
}
