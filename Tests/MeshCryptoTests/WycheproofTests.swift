import Testing
@testable import MeshCrypto

@Suite("Wycheproof vectors", .enabled(if: Wycheproof.directory != nil, Wycheproof.missingNote))
struct WycheproofTests {
    @Test("AES-GCM: every 96-bit-IV, 128-bit-tag case")
    func aesGCM() throws {
        let file = try Wycheproof.load("aes_gcm_test.json", as: AEADFile.self)
        var tally = Tally()
        for group in file.testGroups {
            guard group.ivSize == 96, group.tagSize == 128 else {
                tally.skipped += group.tests.count
                continue
            }
            for test in group.tests {
                let key = hex(test.key), iv = hex(test.iv), aad = hex(test.aad)
                let opened = try? AESGCM.decrypt(key: key, nonce: iv, aad: aad, ciphertext: hex(test.ct), tag: hex(test.tag))
                var correct = opened == hex(test.msg)
                if test.result == "valid" {
                    let sealed = try? AESGCM.encrypt(key: key, nonce: iv, aad: aad, plaintext: hex(test.msg))
                    correct = correct && sealed?.ciphertext == hex(test.ct) && sealed?.tag == hex(test.tag)
                }
                tally.record(id: test.tcId, result: test.result, accepted: opened != nil, correct: correct)
            }
        }
        Wycheproof.report(
            "aes_gcm_test.json", ran: tally.ran, valid: tally.valid, invalid: tally.invalid, acceptable: tally.acceptable,
            skipped: tally.skipped, note: "IV not 96 bits: our API only takes 12-byte nonces")
        #expect(tally.ran > 0)
        #expect(tally.failures.isEmpty, "failing tcIds: \(tally.failures)")
    }

    @Test("ECDH secp256r1 with DER SubjectPublicKeyInfo keys")
    func ecdhSPKI() throws {
        let file = try Wycheproof.load("ecdh_secp256r1_test.json", as: ECDHFile.self)
        let tally = Self.runECDH(file) { try P256PublicKey(derRepresentation: hex($0)) }
        Wycheproof.report(
            "ecdh_secp256r1_test.json", ran: tally.ran, valid: tally.valid, invalid: tally.invalid,
            acceptable: tally.acceptable)
        #expect(tally.ran > 0)
        #expect(tally.failures.isEmpty, "failing tcIds: \(tally.failures)")
    }

    @Test("ECDH secp256r1 with raw points, invalid points rejected")
    func ecdhPoints() throws {
        let file = try Wycheproof.load("ecdh_secp256r1_ecpoint_test.json", as: ECDHFile.self)
        let tally = Self.runECDH(file) { text in
            let bytes = hex(text)
            return bytes.count == P256PublicKey.compressedByteCount
                ? try P256PublicKey(compressed: bytes) : try P256PublicKey(x963: bytes)
        }
        Wycheproof.report(
            "ecdh_secp256r1_ecpoint_test.json", ran: tally.ran, valid: tally.valid, invalid: tally.invalid,
            acceptable: tally.acceptable)
        #expect(tally.ran > 0)
        #expect(tally.failures.isEmpty, "failing tcIds: \(tally.failures)")
    }

    static func runECDH(_ file: ECDHFile, parse: (String) throws -> P256PublicKey) -> Tally {
        var tally = Tally()
        for test in file.testGroups.flatMap(\.tests) {
            let secret = try? P256KeyAgreementKey(rawRepresentation: scalar32(test.private)).sharedSecret(with: parse(test.public))
            tally.record(id: test.tcId, result: test.result, accepted: secret != nil, correct: secret == hex(test.shared))
        }
        return tally
    }

    @Test("ECDSA P-256 SHA-256, DER and P1363 signatures", arguments: ["ecdsa_secp256r1_sha256_test.json", "ecdsa_secp256r1_sha256_p1363_test.json"])
    func ecdsa(_ name: String) throws {
        let file = try Wycheproof.load(name, as: ECDSAFile.self)
        let isRaw = name.contains("p1363")
        var tally = Tally()
        for group in file.testGroups {
            let key = try P256PublicKey(x963: hex(group.publicKey.uncompressed))
            for test in group.tests {
                let signature = hex(test.sig), message = hex(test.msg)
                let accepted = isRaw
                    ? key.isValidSignature(signature, for: message) : key.isValidDERSignature(signature, for: message)
                tally.record(id: test.tcId, result: test.result, accepted: accepted)
            }
        }
        Wycheproof.report(name, ran: tally.ran, valid: tally.valid, invalid: tally.invalid, acceptable: tally.acceptable)
        #expect(tally.ran > 0)
        #expect(tally.failures.isEmpty, "failing tcIds: \(tally.failures)")
    }

    @Test("HKDF-SHA256")
    func hkdf() throws {
        let file = try Wycheproof.load("hkdf_sha256_test.json", as: HKDFFile.self)
        var tally = Tally()
        for test in file.testGroups.flatMap(\.tests) {
            let okm = try? HKDFSHA256.deriveKey(
                inputKeyMaterial: hex(test.ikm), salt: hex(test.salt), info: hex(test.info), outputByteCount: test.size)
            tally.record(id: test.tcId, result: test.result, accepted: okm != nil, correct: okm == hex(test.okm))
        }
        Wycheproof.report("hkdf_sha256_test.json", ran: tally.ran, valid: tally.valid, invalid: tally.invalid, acceptable: tally.acceptable)
        #expect(tally.ran > 0)
        #expect(tally.failures.isEmpty, "failing tcIds: \(tally.failures)")
    }
}
