import Foundation
import MeshProtocol
import Testing
@testable import MeshCrypto

@Suite("The advertised name of each epoch (PROTOCOL.md D13)")
struct AdvertisedNameTests {
    private typealias V = FixedVectors

    /// Identity A of D11: signing scalar 11…11, agreement scalar 22…22.
    private static func identityA() throws -> NodeIdentity {
        try NodeIdentity(signingKey: P256SigningKey(rawRepresentation: V.scalar(0x11)),
                         agreementKey: P256KeyAgreementKey(rawRepresentation: V.scalar(0x22)))
    }

    @Test("Identity A's name key and names match the published vectors")
    func vectors() throws {
        let names = try AdvertisedName(identity: Self.identityA())
        #expect(names.nameKey == V.advertisingNameKeyA)
        #expect(AdvertisedName.epoch(meshTime: V.timestamp) == 472_222)
        #expect(try names.name(epoch: 472_222) == "d3b004b9")
        #expect(try names.name(epoch: 472_223) == "103be18f")
        #expect(try names.name(epoch: 0) == "89eaa276")
        for vector in [Hex.encode(V.advertisingNameKeyA), "d3b004b9", "103be18f", "89eaa276"] {
            let published = Self.protocolDocument.contains(vector)
            #expect(published, "\(vector) is not in docs/PROTOCOL.md D13")
        }
    }

    @Test("Epochs are whole hours of mesh time", arguments: [
        (UInt64(0), UInt64(0)), (3_599_999, 0), (3_600_000, 1), (1_700_000_000_000, 472_222), (UInt64.max, UInt64.max / 3_600_000),
    ])
    func epochBoundaries(meshTime: UInt64, epoch: UInt64) {
        #expect(AdvertisedName.epoch(meshTime: meshTime) == epoch)
    }

    @Test("Names are 8 hex characters, change every epoch and differ between nodes")
    func namesChange() throws {
        let a = try AdvertisedName(identity: Self.identityA())
        let b = try AdvertisedName(identity: NodeIdentity.generate())
        let epochs = UInt64(472_000)..<472_048
        let namesA = try epochs.map { try a.name(epoch: $0) }
        let namesB = try epochs.map { try b.name(epoch: $0) }
        #expect(namesA.allSatisfy { $0.count == 8 && Hex.decode($0) != nil })
        #expect(Set(namesA).count == epochs.count)
        #expect(Set(namesA).isDisjoint(with: namesB))
        #expect(!namesA.contains(try Self.identityA().shortID))
    }

    @Test("A name key of the wrong length is a typed error")
    func badKey() {
        #expect(throws: CryptoError.invalidLength(field: "name key", expected: 32, actual: 31)) {
            try AdvertisedName(nameKey: [UInt8](repeating: 1, count: 31))
        }
    }

    private static let protocolDocument: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = (try? String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)) ?? ""
        return text.filter { !$0.isWhitespace }
    }()
}
