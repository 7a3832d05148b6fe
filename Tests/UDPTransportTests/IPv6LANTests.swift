import Glibc
import Synchronization
import MeshLink
import MeshProtocol
import Testing
@testable import UDPTransport

/// The LAN transport's IPv6 link-local values, without sockets or clocks: scoped endpoints, which
/// sources are taken, the family announced on, one dial per node heard on both families, and
/// what a change of the interface's addresses does.
@Suite("LAN over IPv6 link-local")
struct IPv6LANTests {
    static let loIndex = if_nametoindex("lo")
    static let index: UInt32 = 7
    static let subnet = IPv4Subnet(address: 0xC0A8_0100, prefixLength: 24)
    static let ownLinkLocal = IPv6Address(parsing: "fe80::a")!
    static let peer = IPv6Address(parsing: "fe80::2")!
    static let uuid = LANDiscoveryConfiguration.defaultServiceUUID

    static func configuration(address: UInt32? = 0xC0A8_010A, linkLocal: [IPv6Address] = [ownLinkLocal], ipv6Group: Bool = true)
        -> LANDiscoveryConfiguration {
        LANDiscoveryConfiguration(
            announcement: LANAnnouncement(serviceUUID: uuid, instanceTag: 0x0000_0001, port: 7101), address: address,
            subnet: address == nil ? .none : subnet, interfaceIndex: index, linkLocal: linkLocal, ipv6Group: ipv6Group)
    }
    static func announcement(tag: UInt32, port: UInt16 = 7101) -> [UInt8] {
        LANAnnouncement(serviceUUID: uuid, instanceTag: tag, port: port).encoded()
    }
    static func nothingLinked(_: UDPEndpoint) -> Bool { false }

    @Test("A scoped link-local endpoint parses and prints with its interface", arguments: [
        ("[fe80::1%lo]:7101", "[fe80::1%lo]:7101"),
        ("[fe80::1%1]:7101", "[fe80::1%lo]:7101"),
        ("[FE80:0:0:0:0:0:0:1]:7101", "[fe80::1]:7101"),
        ("[febf::1%lo]:9", "[febf::1%lo]:9"),
    ])
    func scopedEndpointsParse(_ text: String, _ printed: String) throws {
        let endpoint = try UDPEndpoint(parsing: text, anyUnicast: true)
        #expect(endpoint.family == .ipv6 && endpoint.ipv6.isLinkLocal && !endpoint.isLoopback)
        #expect(endpoint.scope == (text.contains("%") ? Self.loIndex : 0))
        #expect(endpoint.description == printed)
        #expect(try UDPEndpoint(parsing: endpoint.description, anyUnicast: true) == endpoint)
    }

    @Test("Other IPv6 addresses and scopes are refused, each with its reason", arguments: [
        ("[fe80::1]:7101", false, UDPEndpointError.notLoopback("fe80::1")),
        ("[2001:db8::1]:7101", true, .notLinkLocal("2001:db8::1")),
        ("[fec0::1]:7101", true, .notLinkLocal("fec0::1")),
        ("[ff02::114]:7100", true, .notLinkLocal("ff02::114")),
        ("[::ffff:192.168.1.2]:7101", true, .notLinkLocal("::ffff:192.168.1.2")),
        ("[::1%lo]:7101", true, .badScope("::1%lo")),
        ("[fe80::1%nosuchif0]:7101", true, .badScope("fe80::1%nosuchif0")),
        ("[fe80::1%lo]:7101", false, .badScope("fe80::1%lo")),
    ])
    func otherAddressesAreRefused(_ text: String, _ anyUnicast: Bool, _ error: UDPEndpointError) {
        #expect(throws: error) { try UDPEndpoint(parsing: text, anyUnicast: anyUnicast) }
    }

    @Test func addressHalvesRoundTrip() throws {
        let address = try #require(IPv6Address(parsing: "fe80::1234:5678:9abc:def0"))
        #expect(address.high == 0xFE80_0000_0000_0000 && address.low == 0x1234_5678_9ABC_DEF0)
        #expect(IPv6Address(address.in6) == address && address.description == "fe80::1234:5678:9abc:def0")
        #expect(IPv6Address.mapping(0xC0A8_0102).mappedIPv4 == 0xC0A8_0102 && address.mappedIPv4 == nil)
        #expect(LANDiscoveryConfiguration.groupV6.description == "ff02::114")
    }

    @Test("A received link-local source is taken only on the interface it is scoped to; a mapped IPv4 one only in the subnet")
    func receivedSourcesFollowTheRule() {
        var storage = sockaddr_storage()
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = UInt16(7101).bigEndian
                address.pointee.sin6_addr = Self.peer.in6
                address.pointee.sin6_scope_id = Self.index
            }
        }
        let lan = UDPSources(subnet: Self.subnet, linkLocalScope: Self.index)
        let taken = UDPSocket.endpoint(from: storage, within: lan)
        #expect(taken?.ipv6 == Self.peer && taken?.scope == Self.index && taken?.port == 7101)
        #expect(UDPSocket.endpoint(from: storage, within: UDPSources(subnet: Self.subnet, linkLocalScope: Self.index + 1)) == nil)
        #expect(UDPSocket.endpoint(from: storage, within: .loopback) == nil)
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr = IPv6Address.mapping(0xC0A8_0102).in6 }
        }
        #expect(UDPSocket.endpoint(from: storage, within: lan)?.description == "192.168.1.2:7101")
        #expect(UDPSocket.endpoint(from: storage, within: UDPSources(subnet: .none, linkLocalScope: Self.index)) == nil)
    }

    @Test("A host's connect budget is its IPv6 address, whatever the port")
    func connectBudgetPerIPv6Host() throws {
        let a = try #require(UDPEndpoint(ipv6: Self.peer, scope: Self.index, port: 40000, linkLocalScope: Self.index))
        let b = try #require(UDPEndpoint(ipv6: Self.peer, scope: Self.index, port: 40001, linkLocalScope: Self.index))
        let other = try #require(UDPEndpoint(ipv6: IPv6Address(parsing: "fe80::3")!, scope: Self.index, port: 40000, linkLocalScope: Self.index))
        #expect(ConnectSource(a) == ConnectSource(b) && ConnectSource(a) != ConnectSource(other))
    }

    @Test("IPv6 announcements are taken from another link-local address on the interface with hop limit 255", arguments: [
        (AnnouncementSource.ipv6(peer, scope: index), Optional(255), true),
        (.ipv6(peer, scope: index), nil, true),
        (.ipv6(peer, scope: index), 1, false),
        (.ipv6(peer, scope: index), 254, false),
        (.ipv6(peer, scope: index + 1), 255, false),
        (.ipv6(ownLinkLocal, scope: index), 255, false),
        (.ipv6(IPv6Address(parsing: "2001:db8::2")!, scope: index), 255, false),
        (.ipv6(IPv6Address.mapping(0xC0A8_0102), scope: index), 255, false),
        (.ipv4(0xC0A8_0102), 1, true),
        (.ipv4(0xC0A8_0102), 255, false),
    ])
    func sourceRules(_ source: AnnouncementSource, _ ttl: Int?, _ taken: Bool) {
        #expect(Self.configuration().accepts(source, ttl: ttl) == taken)
    }

    @Test("Announcements go to the IPv6 group when it is joined and there is a link-local address; else IPv4, else nowhere yet",
          arguments: [
        (true, true, true, AnnouncementSource?.some(.ipv6(LANDiscoveryConfiguration.groupV6, scope: index))),
        (true, true, false, .ipv6(LANDiscoveryConfiguration.groupV6, scope: index)),
        (false, true, true, .ipv4(LANDiscoveryConfiguration.group)),
        (true, false, true, .ipv4(LANDiscoveryConfiguration.group)),
        (false, false, false, nil),
        (true, false, false, nil),
    ])
    func announcementFamily(_ ipv6Group: Bool, _ hasLinkLocal: Bool, _ hasIPv4: Bool, _ group: AnnouncementSource?) {
        let configuration = Self.configuration(address: hasIPv4 ? 0xC0A8_010A : nil, linkLocal: hasLinkLocal ? [Self.ownLinkLocal] : [],
                                               ipv6Group: ipv6Group)
        #expect(configuration.announceGroup == group)
        var discovery = LANDiscovery(configuration: configuration, random: SplitMix64(seed: 1))
        #expect(discovery.tick(now: .zero, isLinked: Self.nothingLinked) == (group == nil ? [] : [.announce(configuration.announcement.encoded())]))
    }

    @Test("A link-local announcer is dialled on its scoped address")
    func linkLocalAnnouncerIsDialled() throws {
        var discovery = LANDiscovery(configuration: Self.configuration(), random: SplitMix64(seed: 1))
        let actions = discovery.receive(Self.announcement(tag: 9, port: 7200), from: .ipv6(Self.peer, scope: Self.index), ttl: 255,
                                        now: .zero, isLinked: Self.nothingLinked)
        let expected = try UDPEndpoint(parsing: "[fe80::2]:7200", anyUnicast: true).scoped(to: Self.index)
        #expect(actions == [.dial(expected)])
    }

    @Test("A node heard on both families is dialled once: a dialled address keeps it; an idle one gives way to the newer")
    func oneDialPerInstanceTag() throws {
        var discovery = LANDiscovery(configuration: Self.configuration(), random: SplitMix64(seed: 1))
        let v6 = AnnouncementSource.ipv6(Self.peer, scope: Self.index)
        let v4 = AnnouncementSource.ipv4(0xC0A8_0102)
        #expect(discovery.receive(Self.announcement(tag: 9), from: v6, ttl: 255, now: .zero, isLinked: Self.nothingLinked).count == 1)
        #expect(discovery.receive(Self.announcement(tag: 9), from: v4, ttl: 1, now: .zero, isLinked: Self.nothingLinked).isEmpty)
        #expect(discovery.counters.announcementsLimited == 1 && discovery.counters.discoveryDials == 1)
        #expect(discovery.announcers.keys.sorted() == [v6])

        // One neighbour at most, taken by tag 8: tag 5 at the IPv4 address stays heard, and gives
        // way to the same node at its IPv6 address.
        var full = Self.configuration()
        full.maxNeighbours = 1
        var idle = LANDiscovery(configuration: full, random: SplitMix64(seed: 1))
        _ = idle.receive(Self.announcement(tag: 8), from: .ipv4(0xC0A8_0103), ttl: 1, now: .zero, isLinked: Self.nothingLinked)
        _ = idle.receive(Self.announcement(tag: 5), from: v4, ttl: 1, now: .zero, isLinked: Self.nothingLinked)
        #expect(idle.announcers[v4]?.state == .heard)
        _ = idle.receive(Self.announcement(tag: 5), from: v6, ttl: 255, now: .zero, isLinked: Self.nothingLinked)
        #expect(idle.announcers[v4] == nil && idle.announcers[v6]?.state == .heard)
    }

    @Test("A lease that arrives after start: discovery starts announcing, and an announcer outside a new subnet is forgotten")
    func followingAddresses() throws {
        var discovery = LANDiscovery(configuration: Self.configuration(address: nil, linkLocal: [], ipv6Group: false), random: SplitMix64(seed: 1))
        #expect(discovery.tick(now: .zero, isLinked: Self.nothingLinked).isEmpty)
        #expect(discovery.follow(address: 0xC0A8_010A, subnet: Self.subnet, linkLocal: []).isEmpty)
        #expect(discovery.tick(now: .seconds(1), isLinked: Self.nothingLinked) == [.announce(Self.announcement(tag: 0x0000_0001))])
        let dial = discovery.receive(Self.announcement(tag: 9), from: .ipv4(0xC0A8_0102), ttl: 1, now: .seconds(1), isLinked: Self.nothingLinked)
        let endpoint = try UDPEndpoint(parsing: "192.168.1.2:7101", anyUnicast: true)
        #expect(dial == [.dial(endpoint)])
        // Renumbered to 10.0.0.0/8: the old announcer is off the link now; its dial stops.
        #expect(discovery.follow(address: 0x0A00_0001, subnet: IPv4Subnet(address: 0x0A00_0000, prefixLength: 8), linkLocal: [])
            == [.forget(endpoint)])
        #expect(discovery.announcers.isEmpty && discovery.neighbourCount == 0)
        // Our own new address is refused as a source.
        #expect(discovery.receive(Self.announcement(tag: 9), from: .ipv4(0x0A00_0001), ttl: 1, now: .seconds(3), isLinked: Self.nothingLinked).isEmpty)
        #expect(discovery.counters.announcementsRejected == 1)
    }

    @Test("Addresses read again: the same or unreadable keep, changed ones are followed, another interface index restarts")
    func interfaceChangeDecisions() {
        let v6Only = InterfaceAddress(name: "eth0", index: 2, linkLocal: [Self.peer])
        var leased = InterfaceAddress(name: "eth0", index: 2, address: 0xC0A8_010A, subnet: Self.subnet, linkLocal: [Self.peer])
        #expect(InterfaceChange.decide(running: v6Only, now: v6Only) == .keep)
        #expect(InterfaceChange.decide(running: v6Only, now: nil) == .keep)
        #expect(InterfaceChange.decide(running: v6Only, now: leased) == .follow(leased))
        #expect(InterfaceChange.decide(running: leased, now: v6Only) == .follow(v6Only))
        leased.index = 5
        #expect(InterfaceChange.decide(running: v6Only, now: leased) == .restart)
    }

    @Test func theHopLimitRecordIsFound() {
        let hops = GroupSocketTests.record(level: Int32(IPPROTO_IPV6), type: IPV6_HOPLIMIT, value: 255)
        #expect(GroupSocketTests.ttl(hops) == 255)
        #expect(GroupSocketTests.ttl(GroupSocketTests.record(level: Int32(IPPROTO_IP), type: IPV6_HOPLIMIT, value: 255)) == nil)
    }
}

/// ``InterfaceTransport`` reading its interface's addresses again: a change goes to the running
/// transport; a replaced interface gets a new one, its links reported down first.
@Suite("A transport on an interface follows its addresses")
struct InterfaceFollowTests {
    @Test("A lease after start is followed on the running transport; a new interface index makes a new transport")
    func followsThenRestarts() throws {
        let v6Only = InterfaceAddress(name: "eth9", index: 4, linkLocal: [IPv6LANTests.peer])
        let leased = InterfaceAddress(name: "eth9", index: 4, address: 0xC0A8_0107, subnet: IPv6LANTests.subnet,
                                      linkLocal: [IPv6LANTests.peer])
        var replaced = leased
        replaced.index = 5
        let current = Mutex(v6Only)
        let made = Mutex<[FollowingStub]>([])
        let events = Mutex<[String]>([])
        let transport = InterfaceTransport(
            interface: "eth9", lookup: { _ throws(InterfaceAddressError) in current.withLock { $0 } },
            make: { found in
                let stub = FollowingStub(made: found)
                made.withLock { $0.append(stub) }
                return stub
            })
        try transport.start { event in
            if case .linkDown(let id, let reason) = event { events.withLock { $0.append("down \(id) \(reason)") } }
        }
        #expect(transport.status.summary == "running on eth9 (fe80::2)")
        transport.checkAddressesNow()
        #expect(made.withLock { $0.count } == 1 && made.withLock { $0[0].follows }.isEmpty)

        current.withLock { $0 = leased }
        transport.checkAddressesNow()
        #expect(made.withLock { $0.count } == 1 && made.withLock { $0[0].follows } == [leased])
        #expect(transport.status.summary == "running on eth9 (192.168.1.7, fe80::2)")

        made.withLock { $0[0] }.emit(.linkUp(LinkInfo(id: LinkID(3), role: .central, remoteAddress: "[fe80::3%eth9]:7101", mtu: 185)))
        current.withLock { $0 = replaced }
        transport.checkAddressesNow()
        let stubs = made.withLock { $0 }
        #expect(stubs.count == 2 && stubs[0].stopped && !stubs[1].stopped && stubs[1].made == replaced)
        #expect(events.withLock { $0 } == ["down link#3 interface eth9 replaced"])
        transport.stop()
        #expect(stubs[1].stopped)
    }
}

/// A transport that records the addresses it was made with and told to follow.
private final class FollowingStub: MeshTransport, InterfaceFollowing {
    private struct State {
        var handler: (@Sendable (TransportEvent) -> Void)?
        var follows: [InterfaceAddress] = []
        var stopped = false
    }
    let made: InterfaceAddress
    private let state = Mutex(State())

    init(made: InterfaceAddress) { self.made = made }
    var follows: [InterfaceAddress] { state.withLock { $0.follows } }
    var stopped: Bool { state.withLock { $0.stopped } }
    func emit(_ event: TransportEvent) { state.withLock { $0.handler }?(event) }

    func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws { state.withLock { $0.handler = handler } }
    func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome { .sent }
    func disconnect(_ link: LinkID) {}
    func stop() { state.withLock { $0.stopped = true } }
    func follow(_ address: InterfaceAddress) { state.withLock { $0.follows.append(address) } }
}
