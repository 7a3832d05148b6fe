import Testing
@testable import Fragmenter

@Suite("Frame header")
struct FrameHeaderTests {
    @Test("Header encodes big-endian and parses back", arguments: [
        FrameHeader(kind: 0x01, transferID: 0, sequence: 0, total: 1),
        FrameHeader(kind: 0x05, transferID: 0xFFFF_FFFF, sequence: 0xFFFE, total: 0xFFFF),
        FrameHeader(kind: 0x02, transferID: 0x1A2B_3C4D, sequence: 0x0102, total: 0x0304),
    ])
    func roundTrip(header: FrameHeader) throws {
        let bytes = header.bytes
        #expect(bytes.count == FrameHeader.length)
        #expect(bytes[1] == UInt8(header.transferID >> 24))
        #expect(bytes[5] == UInt8(header.sequence >> 8))
        #expect(bytes[8] == UInt8(header.total & 0xFF))
        #expect(try FrameHeader(parsing: bytes + [0x7F]) == header)
    }

    @Test("The worked example of docs/PROTOCOL.md (section B3): 30 bytes at MTU 23")
    func workedExample() throws {
        let message = (0..<30).map { UInt8($0) }
        let frames = try FrameSplitter.frames(of: message, kind: 0x02, transferID: 0x1A2B_3C4D, mtu: 23)
        #expect(frames.map(hex) == [
            "021a2b3c4d00000003000102030405060708090a0b0c0d",
            "021a2b3c4d000100030e0f101112131415161718191a1b",
            "021a2b3c4d000200031c1d",
        ])
        var reassembler = Reassembler()
        #expect(try reassembler.receive(frames[2], now: .zero) == .incomplete)
        #expect(try reassembler.receive(frames[0], now: .zero) == .incomplete)
        #expect(try reassembler.receive(frames[1], now: .zero)
            == .complete(kind: 0x02, transferID: 0x1A2B_3C4D, message: message))
    }
}
