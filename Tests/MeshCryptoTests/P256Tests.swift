import Testing
@testable import MeshCrypto

@Suite("P-256 keys, ECDH and ECDSA")
struct P256Tests {
    static let generatorX963 = hex(
        "04 6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
            + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
    static let order = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

    @Test("Scalar 1 gives the generator; the scalar round-trips")
    func scalarOne() throws {
        let one = [UInt8](repeating: 0, count: 31) + [1]
        let key = try P256KeyAgreementKey(rawRepresentation: one)
        #expect(key.publicKey.x963 == Self.generatorX963)
        #expect(try key.rawRepresentation() == one)
    }

    @Test("Compressed and X9.63 encodings round-trip")
    func encodings() throws {
        for _ in 0..<8 {
            let key = try P256SigningKey().publicKey
            #expect(key.x963.count == 65 && key.x963[0] == 0x04)
            #expect(key.compressed.count == 33)
            #expect(try P256PublicKey(compressed: key.compressed) == key)
            #expect(try P256PublicKey(x963: key.x963) == key)
        }
    }

    @Test("A named-curve SubjectPublicKeyInfo parses")
    func derRepresentation() throws {
        let spki = hex("3059301306072a8648ce3d020106082a8648ce3d030107034200") + Self.generatorX963
        #expect(try P256PublicKey(derRepresentation: spki).x963 == Self.generatorX963)
        #expect(throws: CryptoError.invalidPublicKey) { try P256PublicKey(derRepresentation: spki + [0]) }
        #expect(throws: CryptoError.invalidPublicKey) { try P256PublicKey(derRepresentation: []) }
    }

    static let badPoints: [[UInt8]] = [
        [],
        [0x00],
        [0x04] + [UInt8](repeating: 0, count: 64),
        Array(generatorX963.prefix(64)),
        generatorX963 + [0],
        [0x05] + generatorX963.dropFirst(),
        Array(generatorX963.dropLast()) + [generatorX963[64] ^ 1],
        [0x04] + [UInt8](repeating: 0xFF, count: 64),
        [0x02] + [UInt8](repeating: 0xFF, count: 32),
        [0x04] + generatorX963[1...32],
    ]

    @Test("Invalid, off-curve, infinity and wrong-length points are typed errors", arguments: badPoints)
    func rejectsBadPoint(_ bytes: [UInt8]) {
        #expect(throws: CryptoError.invalidPublicKey) {
            bytes.count == 33 ? try P256PublicKey(compressed: bytes) : try P256PublicKey(x963: bytes)
        }
    }

    @Test("Scalars outside 1...n-1 or of the wrong length are rejected")
    func rejectsBadScalars() {
        for scalar in [[UInt8](repeating: 0, count: 32), Self.order, [UInt8](repeating: 0xFF, count: 32)] {
            #expect(throws: CryptoError.invalidPrivateKey) { try P256SigningKey(rawRepresentation: scalar) }
        }
        #expect(throws: CryptoError.invalidLength(field: "P-256 private scalar", expected: 32, actual: 31)) {
            try P256KeyAgreementKey(rawRepresentation: [UInt8](repeating: 1, count: 31))
        }
        var nMinusOne = Self.order
        nMinusOne[31] -= 1
        #expect((try? P256SigningKey(rawRepresentation: nMinusOne)) != nil)
    }

    @Test("ECDH gives both sides the same 32-byte secret")
    func ecdhAgrees() throws {
        let alice = try P256KeyAgreementKey()
        let bob = try P256KeyAgreementKey()
        let secret = try alice.sharedSecret(with: bob.publicKey)
        #expect(secret.count == 32)
        #expect(try secret == bob.sharedSecret(with: alice.publicKey))
        #expect(try secret != alice.sharedSecret(with: P256KeyAgreementKey().publicKey))
    }

    @Test("One key's kept derivation context gives each peer its own secret, in turn and from concurrent tasks")
    func ecdhKeptContext() async throws {
        let alice = try P256KeyAgreementKey()
        let peers = try (0..<4).map { _ in try P256KeyAgreementKey() }
        let expected = try peers.map { try $0.sharedSecret(with: alice.publicKey) }
        #expect(Set(expected).count == peers.count)
        for index in [0, 1, 2, 3, 2, 0, 3, 1] {
            // A peer decoded from its wire bytes, as a hello carries it, and its compressed form.
            let wire = try P256PublicKey(x963: peers[index].publicKey.x963)
            #expect(try alice.sharedSecret(with: wire) == expected[index])
            #expect(try alice.sharedSecret(with: P256PublicKey(compressed: wire.compressed)) == expected[index])
        }
        let results = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for round in 0..<32 {
                let index = round % peers.count
                let peer = peers[index].publicKey
                group.addTask { (index, try alice.sharedSecret(with: peer)) }
            }
            return try await group.reduce(into: [(Int, [UInt8])]()) { $0.append($1) }
        }
        #expect(results.count == 32)
        #expect(results.allSatisfy { expected[$0.0] == $0.1 })
    }

    @Test("Raw signatures verify; any flipped byte, other message or other key fails")
    func signatures() throws {
        let key = try P256SigningKey()
        let message = Array("hello mesh".utf8)
        let signature = try key.signature(for: message)
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(key.publicKey.isValidDERSignature(try ECDSASignature.der(fromRaw: signature), for: message))
        #expect(try ECDSASignature.raw(fromDER: ECDSASignature.der(fromRaw: signature)) == signature)
        var counters = CryptoCounters()
        for index in signature.indices where !key.publicKey.isValidSignature(flipping(signature, at: index), for: message) {
            counters.record(.badSignature)
        }
        #expect(counters.badSignatures == 64)
        #expect(!key.publicKey.isValidSignature(signature, for: message + [0]))
        #expect(!(try P256SigningKey()).publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(Array(signature.prefix(63)), for: message))
        #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0, count: 64), for: message))
    }
}
