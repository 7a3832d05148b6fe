import Glibc
import MeshLink
import Testing
@testable import UDPTransport

/// A received `sockaddr` as the kernel fills it in.
private func storage(ipv4 text: String, port: UInt16) -> sockaddr_storage {
    var storage = sockaddr_storage()
    withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
            address.pointee.sin_family = sa_family_t(AF_INET)
            address.pointee.sin_port = port.bigEndian
            _ = inet_pton(AF_INET, text, &address.pointee.sin_addr)
        }
    }
    return storage
}

private func storage(ipv6 text: String, port: UInt16) -> sockaddr_storage {
    var storage = sockaddr_storage()
    withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
            address.pointee.sin6_family = sa_family_t(AF_INET6)
            address.pointee.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, text, &address.pointee.sin6_addr)
        }
    }
    return storage
}

@Suite("Source addresses of received datagrams, read without text")
struct UDPSourceAddressTests {
    @Test("A loopback source equals the endpoint parsed from its text", arguments: [
        ("127.0.0.1:7002", storage(ipv4: "127.0.0.1", port: 7002)),
        ("127.1.2.3:1", storage(ipv4: "127.1.2.3", port: 1)),
        ("127.255.255.254:65535", storage(ipv4: "127.255.255.254", port: 65535)),
        ("[::1]:7002", storage(ipv6: "::1", port: 7002)),
    ])
    func loopbackSourceMatchesParsedEndpoint(_ text: String, _ source: sockaddr_storage) throws {
        let parsed = try UDPEndpoint(parsing: text)
        let received = try #require(UDPSocket.endpoint(from: source, within: .loopback))
        #expect(received == parsed)
        #expect(received.hashValue == parsed.hashValue)
        #expect(received.description == text)
    }

    @Test("A source outside loopback is refused", arguments: [
        storage(ipv4: "10.0.0.1", port: 7002), storage(ipv4: "128.0.0.1", port: 7002),
        storage(ipv6: "::2", port: 7002), storage(ipv6: "::ffff:10.0.0.1", port: 7002), storage(ipv6: "fe80::1", port: 7002),
        sockaddr_storage(),
    ])
    func nonLoopbackSourceIsRefused(_ source: sockaddr_storage) {
        #expect(UDPSocket.endpoint(from: source, within: .loopback) == nil)
    }
}
