import MeshProtocol
import Testing

@Suite("Link acknowledgement body (PROTOCOL.md D12)")
struct LinkAcknowledgementBodyTests {
    @Test("The document's bodies encode byte for byte and decode back", arguments: [
        (LinkAcknowledgementBody(highest: 1, received: 0, credit: 32), "01000000000000000100000000000000000020"),
        (LinkAcknowledgementBody(highest: 10, received: 0x0b, credit: 32), "01000000000000000a000000000000000b0020"),
        (LinkAcknowledgementBody(highest: 0, received: 0, credit: 0), "01000000000000000000000000000000000000"),
    ])
    func vectors(body: LinkAcknowledgementBody, hex: String) throws {
        #expect(Hex.encode(body.encoded()) == hex)
        #expect(try LinkAcknowledgementBody(decoding: #require(Hex.decode(hex))) == body)
    }

    @Test("Highest 10 with bitmap 0b1011 acknowledges 10, 9, 8 and 6 and nothing else")
    func acknowledgesWhatTheBitmapNames() {
        let body = LinkAcknowledgementBody(highest: 10, received: 0x0b, credit: 32)
        let acknowledged = (0...12).filter { body.acknowledges(UInt64($0)) }
        #expect(acknowledged == [6, 8, 9, 10])
    }

    @Test("Bit 63 names the counter 64 below the highest")
    func lastBit() {
        let body = LinkAcknowledgementBody(highest: 100, received: 1 << 63, credit: 1)
        #expect(body.acknowledges(36))
        #expect(!body.acknowledges(35) && !body.acknowledges(37))
    }

    @Test("Malformed bodies are refused with their reason", arguments: [
        ("", WireError.truncated(needed: 1, remaining: 0)),
        ("02000000000000000100000000000000000020", WireError.unsupportedVersion(2)),
        ("010000000000000001000000000000000000", WireError.truncated(needed: 2, remaining: 1)),
        ("0100000000000000010000000000000000002000", WireError.trailingBytes(1)),
        ("010000000000000002000000000000000200" + "20", WireError.invalidField("acknowledgement bitmap names counters below 1")),
        ("010000000000000000000000000000000100" + "20", WireError.invalidField("acknowledgement bitmap names counters below 1")),
    ])
    func malformed(hex: String, error: WireError) {
        #expect(throws: error) { try LinkAcknowledgementBody(decoding: Hex.decode(hex) ?? [1]) }
    }
}
