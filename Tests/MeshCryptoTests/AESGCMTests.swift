import Testing
@testable import MeshCrypto

/// One AES-256-GCM known-answer test.
struct GCMVector: Sendable, CustomStringConvertible {
    let name: String
    let key: String
    let iv: String
    let aad: String
    let plaintext: String
    let ciphertext: String
    let tag: String
    var description: String { name }
}

@Suite("AES-256-GCM")
struct AESGCMTests {
    /// AES-256 cases 13-16 of McGrew & Viega, "The Galois/Counter Mode of Operation (GCM)",
    /// Appendix B (the test vectors NIST published with the GCM submission).
    static let specVectors: [GCMVector] = [
        GCMVector(
            name: "GCM spec test case 13", key: String(repeating: "00", count: 32), iv: String(repeating: "00", count: 12),
            aad: "", plaintext: "", ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"),
        GCMVector(
            name: "GCM spec test case 14", key: String(repeating: "00", count: 32), iv: String(repeating: "00", count: 12),
            aad: "", plaintext: String(repeating: "00", count: 16), ciphertext: "cea7403d4d606b6e074ec5d3baf39d18",
            tag: "d0d1c8a799996bf0265b98b5d48ab919"),
        GCMVector(
            name: "GCM spec test case 15",
            key: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", iv: "cafebabefacedbaddecaf888",
            aad: "",
            plaintext: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
            ciphertext: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
            tag: "b094dac5d93471bdec1a502270e3cc6c"),
        GCMVector(
            name: "GCM spec test case 16",
            key: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", iv: "cafebabefacedbaddecaf888",
            aad: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            plaintext: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
            ciphertext: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
            tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
    ]

    @Test("Known answers seal and open", arguments: specVectors)
    func knownAnswer(_ vector: GCMVector) throws {
        let combined = try AESGCM.seal(hex(vector.plaintext), key: hex(vector.key), nonce: hex(vector.iv), aad: hex(vector.aad))
        #expect(combined == hex(vector.iv) + hex(vector.ciphertext) + hex(vector.tag))
        #expect(try AESGCM.open(combined, key: hex(vector.key), aad: hex(vector.aad)) == hex(vector.plaintext))
    }

    @Test("Flipping any byte of a spec box or its AAD fails authentication")
    func tamperingFails() {
        let vector = Self.specVectors[3]
        let combined = hex(vector.iv) + hex(vector.ciphertext) + hex(vector.tag)
        for index in combined.indices {
            #expect(throws: CryptoError.authenticationFailed, "flipped byte \(index) of nonce, ciphertext or tag") {
                try AESGCM.open(flipping(combined, at: index), key: hex(vector.key), aad: hex(vector.aad))
            }
        }
        let aad = hex(vector.aad)
        for index in aad.indices {
            #expect(throws: CryptoError.authenticationFailed, "flipped byte \(index) of the associated data") {
                try AESGCM.open(combined, key: hex(vector.key), aad: flipping(aad, at: index))
            }
        }
    }

    @Test("Random nonces differ and round-trip")
    func randomNonce() throws {
        let key = try SecureRandom.bytes(32)
        let first = try AESGCM.seal([1, 2, 3], key: key, aad: [9])
        let second = try AESGCM.seal([1, 2, 3], key: key, aad: [9])
        #expect(first.count == 12 + 3 + 16)
        #expect(first.prefix(12) != second.prefix(12))
        #expect(try AESGCM.open(second, key: key, aad: [9]) == [1, 2, 3])
    }

    @Test("Wrong key length, short boxes are typed errors")
    func badInputs() throws {
        #expect(throws: CryptoError.invalidLength(field: "AES-256 key", expected: 32, actual: 16)) {
            try AESGCM.seal([1], key: [UInt8](repeating: 0, count: 16), aad: [])
        }
        #expect(throws: CryptoError.truncated(field: "AES-GCM box", size: 27, minimum: 28)) {
            try AESGCM.open([UInt8](repeating: 0, count: 27), key: [UInt8](repeating: 0, count: 32), aad: [])
        }
    }
}
