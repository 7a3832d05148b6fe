import Glibc
import Synchronization
import MeshLink
import MeshTestSupport
import Testing
@testable import UDPTransport

/// The LAN transport's pieces, on the loopback interface `lo` (127.0.0.0/8), which every Linux has:
/// the interface's subnet, its lookup, and a socket bound to it that hears only that subnet.
@Suite("UDP on an interface: its subnet alone is heard")
struct LANInterfaceTests {
    static func ipv4(_ text: String) -> UInt32 {
        var address = in_addr()
        _ = inet_pton(AF_INET, text, &address)
        return UInt32(bigEndian: address.s_addr)
    }

    @Test("A subnet holds the addresses that share its prefix", arguments: [
        ("192.168.1.77", 24, "192.168.1.0/24", ["192.168.1.1", "192.168.1.255"], ["192.168.2.1", "10.0.0.1"]),
        ("10.1.2.3", 8, "10.0.0.0/8", ["10.255.0.1"], ["11.0.0.1"]),
        ("127.0.0.2", 32, "127.0.0.2/32", ["127.0.0.2"], ["127.0.0.1"]),
        ("8.8.8.8", 0, "0.0.0.0/0", ["1.2.3.4"], []),
    ])
    func subnetContains(_ address: String, _ prefix: Int, _ text: String, _ inside: [String], _ outside: [String]) {
        let subnet = IPv4Subnet(address: Self.ipv4(address), prefixLength: prefix)
        #expect(subnet.description == text)
        #expect(inside.allSatisfy { subnet.contains(Self.ipv4($0)) })
        #expect(!outside.contains { subnet.contains(Self.ipv4($0)) })
        #expect(IPv4Subnet(address: Self.ipv4(address), netmask: prefix == 0 ? 0 : ~UInt32(0) << (32 - prefix)) == subnet)
    }

    @Test("lo's IPv4 address is found with its subnet; an unknown interface is named")
    func loopbackInterfaceIsFound() throws {
        let lo = try InterfaceAddress.lookup("lo")
        #expect(lo.address == Self.ipv4("127.0.0.1") && lo.subnet == .loopback)
        #expect(throws: InterfaceAddressError.noSuchInterface("nosuchif0")) { try InterfaceAddress.lookup("nosuchif0") }
    }

    @Test("A LAN address parses only when asked for one; multicast, broadcast and 0.0.0.0 never")
    func lanAddressesParse() throws {
        #expect(throws: UDPEndpointError.notLoopback("192.168.1.20")) { try UDPEndpoint(parsing: "192.168.1.20:7101") }
        #expect(try UDPEndpoint(parsing: "192.168.1.20:7101", anyUnicast: true).description == "192.168.1.20:7101")
        #expect(try UDPEndpoint(parsing: "127.0.0.1:7101", anyUnicast: true).isLoopback)
        for address in ["224.0.0.251", "255.255.255.255", "0.0.0.0", "240.0.0.1"] {
            #expect(throws: UDPEndpointError.notUnicast(address)) { try UDPEndpoint(parsing: "\(address):7101", anyUnicast: true) }
        }
    }

    @Test("A socket bound to an interface reads only datagrams from its subnet; others count as rejected sources")
    func onlyTheSubnetIsHeard() throws {
        let onlyTwo = IPv4Subnet(address: Self.ipv4("127.0.0.2"), prefixLength: 32)
        let configuration = UDPTransportConfiguration(
            bind: try UDPEndpoint(host: "127.0.0.2", port: 0), keepaliveInterval: .milliseconds(50),
            linkTimeout: .milliseconds(300), connectInterval: .milliseconds(50), device: "lo", sources: onlyTwo)
        let node = try UDPTransportTests.Node(configuration)
        defer { node.transport.stop() }
        let connect = UDPDatagram(type: .connect, fromCentral: true, instance: 7, linkNonce: 8, body: UDPDatagram.mtuBody(60))
        let stranger = try UDPSocket.bind(UDPEndpoint(host: "127.0.0.1", port: 0))
        defer { stranger.close() }
        #expect(stranger.send(connect.encoded(), to: node.transport.boundEndpoint) == .sent)
        let insider = try UDPSocket.bind(UDPEndpoint(host: "127.0.0.2", port: 0))
        defer { insider.close() }
        #expect(insider.send(connect.encoded(), to: node.transport.boundEndpoint) == .sent)
        let link = try #require(node.waitForLink(role: .peripheral))
        #expect(link.remoteAddress == (try insider.localEndpoint()).description)
        #expect(node.transport.counters().rejectedSource == 1)
        #expect(node.transport.links().count == 1)
    }
}

/// A transport the test hands out for an interface once it has an address.
private final class StubTransport: MeshTransport {
    private let calls = Mutex<[String]>([])
    func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws { calls.withLock { $0.append("start") } }
    func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome {
        calls.withLock { $0.append("send \(link)") }
        return .sent
    }
    func disconnect(_ link: LinkID) {}
    func stop() { calls.withLock { $0.append("stop") } }
    var log: [String] { calls.withLock { $0 } }
}

@Suite("A transport on an interface waits for it")
struct InterfaceTransportTests {
    @Test("Retries come after 1 s, then twice as long each time up to 30 s")
    func waitDoublesUpTo30Seconds() {
        var wait = InterfaceWait()
        let delays = (0..<7).map { _ in wait.failed("no address") }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30].map { Duration.seconds($0) })
        #expect(wait.failures == 7 && wait.reason == "no address")
    }

    @Test("While the interface has no address the transport waits and says why; once it has one, its transport runs")
    func waitsThenRuns() throws {
        let present = Mutex(false)
        let stub = StubTransport()
        let address = InterfaceAddress(name: "eth9", address: LANInterfaceTests.ipv4("192.168.1.7"),
                                       subnet: IPv4Subnet(address: LANInterfaceTests.ipv4("192.168.1.0"), prefixLength: 24))
        let transport = InterfaceTransport(
            interface: "eth9",
            lookup: { name throws(InterfaceAddressError) in
                guard present.withLock({ $0 }) else { throw .noAddress(name) }
                return address
            },
            make: { found in
                #expect(found == address)
                return stub
            })
        try transport.start { _ in }
        #expect(transport.status.summary?.hasPrefix("waiting for eth9: interface eth9 has no IPv4 address nor IPv6 link-local address (retry in ") == true)
        #expect(transport.send([1], on: LinkID(1)) == .gone)
        present.withLock { $0 = true }
        transport.retryNow()
        #expect(transport.status.summary == "running on eth9 (192.168.1.7)")
        #expect(transport.send([1], on: LinkID(1)) == .sent)
        transport.stop()
        #expect(stub.log == ["start", "send link#1", "stop"])
    }
}
