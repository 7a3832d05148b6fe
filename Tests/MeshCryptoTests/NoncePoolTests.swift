import MeshProtocol
import Testing
@testable import MeshCrypto

@Suite("Nonce pool")
struct NoncePoolTests {
    /// The nonce of a link packet: after the 24-byte header.
    private func nonce(of packet: [UInt8]) -> [UInt8] {
        Array(packet[LinkSession.headerLength..<(LinkSession.headerLength + AESGCM.nonceByteCount)])
    }

    @Test func everyNonceOfAPoolIsNewAcrossSeveralRefills() throws {
        let pool = NoncePool()
        var seen = Set<[UInt8]>()
        for _ in 0..<(NoncePool.nonces * 3 + 1) {
            let nonce = try pool.next()
            #expect(nonce.count == AESGCM.nonceByteCount)
            #expect(seen.insert(nonce).inserted)
        }
    }

    @Test func aCopyOfASessionNeverSealsWithTheNonceTheOriginalUses() throws {
        var (original, receiver) = try linkedSessions()
        var copy = original
        let id = try MessageID(bytes: [UInt8](repeating: 1, count: MessageID.byteCount))
        var nonces = Set<[UInt8]>()
        for _ in 0..<NoncePool.nonces {
            #expect(nonces.insert(nonce(of: try original.seal(kind: .message, messageID: id, plaintext: [1]))).inserted)
            #expect(nonces.insert(nonce(of: try copy.seal(kind: .message, messageID: id, plaintext: [1]))).inserted)
        }
        // Packets from the pool still open.
        let packet = try original.seal(kind: .message, messageID: id, plaintext: [7])
        #expect(try receiver.open(kind: .message, packet: packet).plaintext == [7])
    }
}
