import Foundation
import Testing
@testable import UDPTransport

/// The discovery announcement of docs/PROTOCOL.md ("LAN discovery"): its vector, byte for byte,
/// and every way a datagram fails to be one.
@Suite("LAN discovery announcement")
struct LANAnnouncementTests {
    static let uuid = "8f2c0001-5e1a-4c7b-9d3e-6d657368ee01"
    static let vectorHex = "018f2c00015e1a4c7b9d3e6d657368ee011a2b3c4d1bbd"
    static var vector: LANAnnouncement {
        LANAnnouncement(serviceUUID: LANAnnouncement.uuidBytes(uuid)!, instanceTag: 0x1A2B_3C4D, port: 7101)
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func theCodecWritesAndReadsTheVector() throws {
        let bytes = Self.vector.encoded()
        #expect(bytes.count == LANAnnouncement.length)
        #expect(Self.hex(bytes) == Self.vectorHex)
        #expect(try LANAnnouncement(decoding: bytes) == Self.vector)
    }

    @Test func protocolPrintsTheVector() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        let squeezed = text.filter { !$0.isWhitespace && $0 != "`" }
        #expect(squeezed.contains(Self.vectorHex), "PROTOCOL.md lacks \(Self.vectorHex)")
        #expect(text.contains("224.0.0.254") && text.contains("[ff02::114]:7100") && text.contains("hop limit 255"))
    }

    @Test("Anything but exactly 23 bytes is refused by its length", arguments: [0, 1, 22, 24, 512, 65_507])
    func wrongLengths(_ length: Int) {
        let bytes = Array((Self.vector.encoded() + [UInt8](repeating: 0xAA, count: max(0, length - 23))).prefix(length))
        #expect(throws: LANAnnouncementError.length(length)) { try LANAnnouncement(decoding: bytes) }
    }

    @Test("A version byte other than 1 is refused", arguments: [UInt8(0), 2, 0x80, 0xFF])
    func wrongVersions(_ version: UInt8) {
        var bytes = Self.vector.encoded()
        bytes[0] = version
        #expect(throws: LANAnnouncementError.version(version)) { try LANAnnouncement(decoding: bytes) }
    }

    @Test func portZeroIsRefused() {
        var bytes = Self.vector.encoded()
        bytes[21] = 0
        bytes[22] = 0
        #expect(throws: LANAnnouncementError.portZero) { try LANAnnouncement(decoding: bytes) }
    }

    @Test("UUID text parses to 16 bytes; other text does not", arguments: [
        ("8F2C0001-5E1A-4C7B-9D3E-6D657368EE01", true), (uuid, true), ("8f2c00015e1a4c7b9d3e6d657368ee01", false),
        ("8f2c0001-5e1a-4c7b-9d3e-6d657368ee0g", false), ("", false),
    ])
    func uuidText(_ text: String, _ valid: Bool) {
        let bytes = LANAnnouncement.uuidBytes(text)
        #expect((bytes != nil) == valid)
        if let bytes { #expect(Self.hex(bytes) == "8f2c00015e1a4c7b9d3e6d657368ee01") }
    }
}
