import Testing
@testable import MeshCrypto

/// One RFC 4231 section 4 test case for HMAC-SHA-256 (`truncated`: only that many bytes are published).
struct HMACVector: Sendable, CustomStringConvertible {
    let name: String
    let key: [UInt8]
    let data: [UInt8]
    let mac: String
    var truncated: Int? = nil
    var description: String { name }
}

@Suite("HMAC-SHA256")
struct HMACTests {
    static let rfc4231: [HMACVector] = [
        HMACVector(name: "RFC 4231 4.2", key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
                   mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        HMACVector(name: "RFC 4231 4.3", key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
                   mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        HMACVector(name: "RFC 4231 4.4", key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
                   mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        HMACVector(name: "RFC 4231 4.5", key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
                   mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        HMACVector(name: "RFC 4231 4.6 (truncated to 128 bits)", key: [UInt8](repeating: 0x0c, count: 20),
                   data: Array("Test With Truncation".utf8), mac: "a3b6167473100ee06e0c796c2955552b", truncated: 16),
        HMACVector(name: "RFC 4231 4.7 (key longer than the block)", key: [UInt8](repeating: 0xaa, count: 131),
                   data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                   mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        HMACVector(name: "RFC 4231 4.8 (key and data longer than the block)", key: [UInt8](repeating: 0xaa, count: 131),
                   data: Array(("This is a test using a larger than block-size key and a larger than block-size data. "
                       + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
                   mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test("RFC 4231 test cases 1-7", arguments: rfc4231)
    func rfcVector(_ vector: HMACVector) throws {
        let code = try HMACSHA256.authenticationCode(for: vector.data, key: vector.key)
        #expect(code.count == 32)
        #expect(Array(code.prefix(vector.truncated ?? 32)) == hex(vector.mac))
    }

    @Test("An empty key and inputs over the bound are typed errors")
    func rejectsBadInputs() {
        #expect(throws: CryptoError.truncated(field: "HMAC key", size: 0, minimum: 1)) {
            try HMACSHA256.authenticationCode(for: [1], key: [])
        }
        #expect(throws: CryptoError.tooLarge(field: "HMAC message", size: 65_537, limit: 65_536)) {
            try HMACSHA256.authenticationCode(for: [UInt8](repeating: 0, count: 65_537), key: [1])
        }
        #expect(throws: CryptoError.tooLarge(field: "HMAC key", size: 65_537, limit: 65_536)) {
            try HMACSHA256.authenticationCode(for: [1], key: [UInt8](repeating: 0, count: 65_537))
        }
    }
}
