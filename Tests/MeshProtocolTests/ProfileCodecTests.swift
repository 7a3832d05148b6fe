import Testing
@testable import MeshProtocol

private let sampleProfile = Profile(
    nodeID: try! NodeID(bytes: Array(0..<16)), displayName: "Hallway relay 🛰", icon: "📡", role: .relay,
    signingKey: [0x04] + Array(repeating: 0x11, count: 64), agreementKey: [0x04] + Array(repeating: 0x22, count: 64))

@Test("A profile round-trips")
func profileRoundTrip() throws {
    #expect(try Profile(decoding: sampleProfile.encoded()) == sampleProfile)
}

@Test("Every truncation of a profile is a typed error")
func profileTruncations() {
    let bytes = sampleProfile.encoded()
    for length in 0..<bytes.count {
        #expect(throws: WireError.self) { try Profile(decoding: bytes.prefix(length)) }
    }
}

@Test("Invalid UTF-8 in a name is refused")
func invalidName() {
    var bytes = sampleProfile.encoded()
    bytes[17] = 0xFF  // first byte of the display name
    #expect(throws: WireError.invalidText(field: "displayName")) { try Profile(decoding: bytes) }
}

@Test("Hex and short IDs", arguments: ["00112233445566778899aabbccddeeff", "00112233445566778899AABBCCDDEEFF"])
func nodeIDHex(text: String) throws {
    let id = try #require(NodeID(hex: text))
    #expect(id.hex == text.lowercased())
    #expect(id.shortID == "00112233")
    #expect(NodeID(hex: "0011") == nil)
    #expect(NodeID(hex: String(text.dropLast()) + "g") == nil)
}
