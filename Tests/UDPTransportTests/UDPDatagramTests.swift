import MeshLink
import Testing
@testable import UDPTransport

@Suite("UDP datagram codec")
struct UDPDatagramTests {
    @Test func roundTripsEveryType() throws {
        let samples = [
            UDPDatagram(type: .connect, fromCentral: true, instance: 1, linkNonce: 2, body: UDPDatagram.mtuBody(185)),
            UDPDatagram(type: .accept, fromCentral: false, instance: .max, linkNonce: 0, body: UDPDatagram.mtuBody(510)),
            UDPDatagram(type: .frame, fromCentral: false, instance: 3, linkNonce: 4, body: Array(repeating: 7, count: 510)),
            UDPDatagram(type: .frame, fromCentral: true, instance: 3, linkNonce: 4, body: []),
            UDPDatagram(type: .keepalive, fromCentral: true, instance: 5, linkNonce: 6),
            UDPDatagram(type: .close, fromCentral: false, instance: 7, linkNonce: 8),
        ]
        for datagram in samples {
            #expect(try UDPDatagram(decoding: datagram.encoded()) == datagram)
        }
        #expect(samples[0].encoded() == [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 185])
        #expect(samples[0].mtu == 185)
    }

    static let header: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]

    /// Bad datagrams and the error each gets (the element type written out: Swift 6.0's type
    /// checker gives up on the literal without it).
    static let badDatagrams: [([UInt8], UDPDatagramError)] = [
        ([UInt8](), .truncated(0)),
        ([3] + [UInt8](repeating: 0, count: 16), .truncated(17)),
        ([9, 0] + header, .unknownType(9)),
        ([3, 2] + header, .malformed("reserved flag bits 2")),
        ([4, 0] + header + [1], .malformed("keepalive with a body")),
        ([1, 1] + header + [0, 19], .malformed("bad MTU body")),
        ([1, 1] + header + [1, 255], .malformed("bad MTU body")),
        ([1, 0] + header + [0, 23], .malformed("connect from the wrong role")),
        ([2, 1] + header + [0, 23], .malformed("accept from the wrong role")),
        ([3, 0] + header + [UInt8](repeating: 0, count: 518), .oversized(536)),
    ]

    @Test("bad datagrams are refused with a typed error", arguments: badDatagrams)
    func refuses(_ bytes: [UInt8], _ error: UDPDatagramError) {
        #expect(throws: error) { try UDPDatagram(decoding: bytes) }
    }
}

@Suite("loopback endpoints")
struct UDPEndpointTests {
    @Test("loopback only", arguments: [
        ("127.0.0.1:7001", "127.0.0.1:7001"), ("127.1.2.3:1", "127.1.2.3:1"), ("localhost:9", "127.0.0.1:9"),
        ("[::1]:7002", "[::1]:7002"), ("[0:0:0:0:0:0:0:1]:5", "[::1]:5"),
    ])
    func accepts(_ text: String, _ canonical: String) throws {
        #expect(try UDPEndpoint(parsing: text).description == canonical)
    }

    @Test("everything else is refused", arguments: [
        ("192.168.1.1:7001", UDPEndpointError.notLoopback("192.168.1.1")), ("8.8.8.8:53", .notLoopback("8.8.8.8")),
        ("[::2]:7001", .notLoopback("::2")), ("[::ffff:127.0.0.1]:7001", .notLoopback("::ffff:127.0.0.1")),
        ("example.com:80", .notNumeric("example.com")), ("127.0.0.1", .malformed("127.0.0.1")),
        ("127.0.0.1:0", .badPort("0")), ("127.0.0.1:65536", .badPort("65536")), ("::1:80", .malformed("::1:80")),
    ])
    func refuses(_ text: String, _ error: UDPEndpointError) {
        #expect(throws: error) { try UDPEndpoint(parsing: text) }
    }
}
