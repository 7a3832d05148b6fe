import Testing
@testable import MeshCrypto

/// One RFC 5869 Appendix A test case for HKDF-SHA-256.
struct HKDFVector: Sendable, CustomStringConvertible {
    let name: String
    let ikm: String
    let salt: String
    let info: String
    let length: Int
    let okm: String
    var description: String { name }
}

@Suite("HKDF-SHA256")
struct HKDFTests {
    static let rfc5869: [HKDFVector] = [
        HKDFVector(
            name: "RFC 5869 A.1", ikm: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
            salt: "000102030405060708090a0b0c", info: "f0f1f2f3f4f5f6f7f8f9", length: 42,
            okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        HKDFVector(
            name: "RFC 5869 A.2",
            ikm: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                + "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f",
            salt: "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
                + "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
            info: "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecf"
                + "d0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
            length: 82,
            okm: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09"
                + "da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        HKDFVector(
            name: "RFC 5869 A.3 (empty salt and info)", ikm: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
            salt: "", info: "", length: 42,
            okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test("RFC 5869 test cases 1-3", arguments: rfc5869)
    func rfcVector(_ vector: HKDFVector) throws {
        let okm = try HKDFSHA256.deriveKey(
            inputKeyMaterial: hex(vector.ikm), salt: hex(vector.salt), info: hex(vector.info),
            outputByteCount: vector.length)
        #expect(okm == hex(vector.okm))
    }

    @Test("Output lengths outside 1...8160 are typed errors", arguments: [0, -1, 8161, 100_000])
    func rejectsBadLengths(_ length: Int) {
        #expect(throws: CryptoError.invalidOutputLength(length)) {
            try HKDFSHA256.deriveKey(inputKeyMaterial: [1, 2, 3], salt: [], info: [], outputByteCount: length)
        }
    }

    @Test("The longest output is accepted")
    func longestOutput() throws {
        let okm = try HKDFSHA256.deriveKey(inputKeyMaterial: [7], salt: [], info: [], outputByteCount: 8160)
        #expect(okm.count == 8160)
    }

    @Test("Info longer than OpenSSL's limit is a typed error")
    func rejectsLongInfo() {
        #expect(throws: CryptoError.tooLarge(field: "HKDF info", size: 1025, limit: 1024)) {
            try HKDFSHA256.deriveKey(
                inputKeyMaterial: [1], salt: [], info: [UInt8](repeating: 0, count: 1025), outputByteCount: 32)
        }
    }
}
