import Foundation
import Testing
@testable import UDPTransport

/// The challenge, answer, proof and close vectors of docs/OPERATIONS.md ("UDP link protocol"), which
/// any UDP peer needs: what the codec writes, byte for byte, and what the document prints.
@Suite("UDP link protocol vectors")
struct UDPLinkVectorTests {
    static let peripheral: UInt64 = 0x0102_0304_0506_0708
    static let central: UInt64 = 0x2122_2324_2526_2728
    static let nonce: UInt64 = 0x1112_1314_1516_1718
    static let challenge: UInt64 = 0xA1A2_A3A4_A5A6_A7A8

    /// Each vector as OPERATIONS.md prints it (hex, no spaces) and the datagram it is.
    static let vectors: [(hex: String, datagram: UDPDatagram)] = [
        ("060001020304050607081112131415161718a1a2a3a4a5a6a7a8",
         UDPDatagram(type: .challenge, fromCentral: false, instance: peripheral, linkNonce: nonce,
                     body: UDPDatagram.challengeBody(challenge))),
        ("070121222324252627281112131415161718a1a2a3a4a5a6a7a801",
         UDPDatagram(type: .answer, fromCentral: true, instance: central, linkNonce: nonce,
                     body: UDPDatagram.answerBody(challenge, verdict: .stillHere))),
        ("070121222324252627281112131415161718a1a2a3a4a5a6a7a800",
         UDPDatagram(type: .answer, fromCentral: true, instance: central, linkNonce: nonce,
                     body: UDPDatagram.answerBody(challenge, verdict: .gone))),
        ("050121222324252627281112131415161718",
         UDPDatagram(type: .close, fromCentral: true, instance: central, linkNonce: nonce)),
    ].map { (hex: $0.0.replacingOccurrences(of: " ", with: ""), datagram: $0.1) }

    @Test func theCodecWritesAndReadsEveryVector() throws {
        #expect(Self.vectors.map(\.hex.count) == [52, 54, 54, 36])
        for (hex, datagram) in Self.vectors {
            let bytes = datagram.encoded()
            #expect(bytes.map { String(format: "%02x", $0) }.joined() == hex)
            #expect(try UDPDatagram(decoding: bytes) == datagram)
        }
        #expect(try UDPDatagram(decoding: Self.vectors[1].datagram.encoded()).verdict == .stillHere)
        #expect(try UDPDatagram(decoding: Self.vectors[2].datagram.encoded()).verdict == .gone)
    }

    @Test func operationsPrintsEveryVector() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/OPERATIONS.md"), encoding: .utf8)
        let squeezed = text.filter { !$0.isWhitespace && $0 != "`" }
        for (hex, _) in Self.vectors {
            #expect(squeezed.contains(hex), "OPERATIONS.md lacks \(hex)")
        }
    }
}
