import MeshCrypto
@testable import MeshNode
import MeshProtocol
import Testing

@Suite struct OriginKeyCacheTests {
    private func body(of identity: NodeIdentity) -> ChatBody {
        ChatBody(
            signingKey: identity.signingPublicKey.compressed, agreementKey: identity.agreementPublicKey.compressed, text: "hi")
    }

    @Test func aKnownOriginGetsTheKeysItsBodyCarries() throws {
        var cache = OriginKeyCache()
        let origin = try NodeIdentity.generate()
        let first = try cache.keys(for: body(of: origin), origin: origin.nodeID)
        let second = try cache.keys(for: body(of: origin), origin: origin.nodeID)
        #expect(first.signing == origin.signingPublicKey)
        #expect(second.signing == origin.signingPublicKey && second.agreement == origin.agreementPublicKey)
        #expect(cache.count == 1)
    }

    @Test func anotherNodesKeysUnderAKnownOriginAreStillRefused() throws {
        var cache = OriginKeyCache()
        let origin = try NodeIdentity.generate()
        let impostor = try NodeIdentity.generate()
        _ = try cache.keys(for: body(of: origin), origin: origin.nodeID)
        #expect(throws: VerificationFailure.originMismatch) {
            try cache.keys(for: body(of: impostor), origin: origin.nodeID)
        }
        // The genuine entry is untouched.
        #expect(try cache.keys(for: body(of: origin), origin: origin.nodeID).signing == origin.signingPublicKey)
    }

    @Test func keysThatFailTheirChecksAreNeverKept() throws {
        var cache = OriginKeyCache()
        let origin = try NodeIdentity.generate()
        var bad = body(of: origin)
        bad.signingKey = [0x02] + [UInt8](repeating: 0xFF, count: 32)
        #expect(throws: VerificationFailure.badKey) { try cache.keys(for: bad, origin: origin.nodeID) }
        #expect(cache.count == 0)
    }

    @Test func theCacheNeverHoldsMoreOriginsThanItsCapacity() throws {
        var cache = OriginKeyCache()
        let origins = try (0...OriginKeyCache.capacity).map { _ in try NodeIdentity.generate() }
        for origin in origins { _ = try cache.keys(for: body(of: origin), origin: origin.nodeID) }
        #expect(cache.count == OriginKeyCache.capacity)
    }
}
