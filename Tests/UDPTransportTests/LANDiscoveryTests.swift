import MeshLink
import MeshProtocol
import Testing
@testable import UDPTransport

/// LAN discovery's decisions, without sockets or clocks: when it announces, whom it dials,
/// whom it ignores, and when it forgets.
@Suite("LAN discovery decisions")
struct LANDiscoveryTests {
    /// 192.168.1.0/24; we are .10.
    static let subnet = IPv4Subnet(address: 0xC0A8_0100, prefixLength: 24)
    static let own: UInt32 = 0xC0A8_010A
    static let uuid = LANDiscoveryConfiguration.defaultServiceUUID
    static let ownID: UInt32 = 0x0102_0304

    static func host(_ last: UInt32) -> AnnouncementSource { .ipv4(0xC0A8_0100 | last) }
    static func endpoint(_ last: UInt32, port: UInt16 = 7101) -> UDPEndpoint {
        UDPEndpoint(ipv4: 0xC0A8_0100 | last, port: port, within: subnet)!
    }
    static func announcement(id: UInt32, port: UInt16 = 7101, uuid: [UInt8] = uuid) -> [UInt8] {
        LANAnnouncement(serviceUUID: uuid, instanceTag: id, port: port).encoded()
    }
    static func discovery(maxNeighbours: Int = 16, maxAnnouncers: Int = 64, jitter: Double = 0.25, seed: UInt64 = 1) -> LANDiscovery {
        LANDiscovery(
            configuration: LANDiscoveryConfiguration(
                announcement: LANAnnouncement(serviceUUID: uuid, instanceTag: ownID, port: 7101), address: own, subnet: subnet,
                jitter: jitter, maxNeighbours: maxNeighbours, maxAnnouncers: maxAnnouncers),
            random: SplitMix64(seed: seed))
    }
    static func nothingLinked(_: UDPEndpoint) -> Bool { false }
    /// `actions` without announcements, whose times the jitter decides.
    static func links(_ actions: [LANDiscovery.Action]) -> [LANDiscovery.Action] {
        actions.filter { if case .announce = $0 { false } else { true } }
    }

    @Test("The first announcement goes at once; later ones every 5 s ± 25 %, drawn from the random source",
          arguments: [UInt64(1), 2, 3, 99])
    func announcesWithJitter(seed: UInt64) {
        var discovery = Self.discovery(seed: seed)
        #expect(discovery.tick(now: .zero, isLinked: Self.nothingLinked) == [.announce(Self.announcement(id: Self.ownID))])
        var last = Duration.zero
        var gaps: [Duration] = []
        for step in 1...4000 {
            let now = Duration.milliseconds(step * 10)
            if discovery.tick(now: now, isLinked: Self.nothingLinked).contains(.announce(Self.announcement(id: Self.ownID))) {
                gaps.append(now - last)
                last = now
            }
        }
        #expect(gaps.count >= 6)
        #expect(gaps.allSatisfy { $0 >= .milliseconds(3750) && $0 <= .milliseconds(6260) })
        #expect(Set(gaps).count > 1, "jitter varies the gaps")
        #expect(discovery.counters.announcementsSent == UInt64(gaps.count + 1))
    }

    @Test func withoutJitterTheGapIsThePeriod() {
        var discovery = Self.discovery(jitter: 0)
        _ = discovery.tick(now: .zero, isLinked: Self.nothingLinked)
        #expect(discovery.nextAnnouncementAt == .seconds(5))
    }

    @Test func anAnnouncerIsDialledOnItsSourceAddressAndAnnouncedPort() {
        var discovery = Self.discovery()
        let actions = discovery.receive(Self.announcement(id: 7, port: 7200), from: Self.host(20), ttl: 1, now: .zero, isLinked: Self.nothingLinked)
        #expect(actions == [.dial(Self.endpoint(20, port: 7200))])
        #expect(discovery.counters.discoveryDials == 1 && discovery.neighbourCount == 1)
    }

    /// Ways an announcement is refused, and the counter each lands in.
    enum Refusal: String, CaseIterable, Sendable {
        case outsideSubnet, routed, ownAddress, ownShortID, noSource, foreignMesh, shortDatagram, badVersion
    }

    @Test("Refused announcements dial nothing and are counted", arguments: Refusal.allCases)
    func refusals(_ refusal: Refusal) {
        var discovery = Self.discovery()
        var bytes = Self.announcement(id: 7)
        var source: AnnouncementSource? = Self.host(20)
        var ttl: Int? = 1
        switch refusal {
        case .outsideSubnet: source = .ipv4(0xC0A8_0214)
        case .routed: ttl = 63
        case .ownAddress: source = .ipv4(Self.own)
        case .ownShortID: bytes = Self.announcement(id: Self.ownID)
        case .noSource: source = nil
        case .foreignMesh: bytes = Self.announcement(id: 7, uuid: [UInt8](repeating: 0x42, count: 16))
        case .shortDatagram: bytes.removeLast()
        case .badVersion: bytes[0] = 2
        }
        #expect(discovery.receive(bytes, from: source, ttl: ttl, now: .zero, isLinked: Self.nothingLinked).isEmpty)
        let counters = discovery.counters
        #expect(counters.announcementsReceived == 1 && counters.discoveryDials == 0)
        switch refusal {
        case .outsideSubnet, .routed, .ownAddress, .ownShortID, .noSource: #expect(counters.announcementsRejected == 1)
        case .foreignMesh: #expect(counters.announcementsForeign == 1)
        case .shortDatagram, .badVersion: #expect(counters.announcementsMalformed == 1)
        }
    }

    @Test func aSocketThatCannotReadTheTTLStillHears() {
        var discovery = Self.discovery()
        #expect(discovery.receive(Self.announcement(id: 7), from: Self.host(20), ttl: nil, now: .zero, isLinked: Self.nothingLinked).count == 1)
    }

    @Test func anAnnouncerAlreadyLinkedIsNotDialled() {
        var discovery = Self.discovery()
        let linked = Self.endpoint(20)
        #expect(discovery.receive(Self.announcement(id: 7), from: Self.host(20), ttl: 1, now: .zero, isLinked: { $0 == linked }).isEmpty)
        #expect(discovery.neighbourCount == 1 && discovery.counters.discoveryDials == 0)
    }

    @Test("One announcement per source per second is considered; a flood from one address costs one entry",
          arguments: [10, 1000])
    func perSourceRateLimit(_ flood: Int) {
        var discovery = Self.discovery()
        var dials = 0
        for index in 0..<flood {
            let now = Duration.microseconds(index * 10)
            dials += discovery.receive(Self.announcement(id: UInt32(100 + index), port: UInt16(7000 + index)), from: Self.host(66), ttl: 1,
                                       now: now, isLinked: Self.nothingLinked).count
        }
        #expect(dials == 1)
        #expect(discovery.counters.announcementsLimited == UInt64(flood - 1))
        #expect(discovery.announcers.count == 1)
    }

    @Test("At most maxNeighbours announcers are dialled or linked at once; the rest wait for room",
          arguments: [1, 4, 16])
    func neighbourCap(_ cap: Int) {
        var discovery = Self.discovery(maxNeighbours: cap)
        var dialled: [UDPEndpoint] = []
        for last in UInt32(20)..<UInt32(40) {
            for case .dial(let endpoint) in discovery.receive(Self.announcement(id: last), from: Self.host(last), ttl: 1, now: .zero, isLinked: Self.nothingLinked) {
                dialled.append(endpoint)
            }
        }
        #expect(dialled.count == cap)
        // Every dial fails: each is held off, and the waiting ones are dialled in their place.
        let actions = discovery.tick(now: .seconds(5), isLinked: Self.nothingLinked)
        let forgotten = actions.filter { if case .forget = $0 { true } else { false } }
        let redialled = actions.filter { if case .dial = $0 { true } else { false } }
        #expect(forgotten.count == cap)
        #expect(redialled.count == min(cap, 20 - cap))
        #expect(discovery.counters.discoveryFailures == UInt64(cap))
    }

    @Test func aFailedAnnouncerIsHeldOffThenDialledAgain() {
        var discovery = Self.discovery()
        let endpoint = Self.endpoint(20)
        _ = discovery.receive(Self.announcement(id: 7), from: Self.host(20), ttl: 1, now: .zero, isLinked: Self.nothingLinked)
        #expect(discovery.tick(now: .seconds(5), isLinked: Self.nothingLinked).contains(.forget(endpoint)))
        // Announcing again during the hold-off dials nothing.
        #expect(discovery.receive(Self.announcement(id: 7), from: Self.host(20), ttl: 1, now: .seconds(15), isLinked: Self.nothingLinked).isEmpty)
        // After it, the next announcement (or tick) dials.
        #expect(discovery.receive(Self.announcement(id: 7), from: Self.host(20), ttl: 1, now: .seconds(26), isLinked: Self.nothingLinked) == [.dial(endpoint)])
    }

    @Test func aDialThatLinksStaysAndALinkThatDropsIsRetriedThenForgotten() {
        var discovery = Self.discovery()
        let endpoint = Self.endpoint(20)
        _ = discovery.receive(Self.announcement(id: 7), from: Self.host(20), ttl: 1, now: .zero, isLinked: Self.nothingLinked)
        #expect(!discovery.tick(now: .seconds(1), isLinked: { $0 == endpoint }).contains(.forget(endpoint)))
        // Linked for a minute without announcements: it stays (links are not forgotten for silence).
        #expect(!discovery.tick(now: .seconds(60), isLinked: { $0 == endpoint }).contains(.forget(endpoint)))
        // The link drops: it is dialled (the peer may have been the one that dialled); no link
        // within the dial timeout forgets it.
        #expect(Self.links(discovery.tick(now: .seconds(61), isLinked: Self.nothingLinked)) == [.dial(endpoint)])
        #expect(Self.links(discovery.tick(now: .seconds(62), isLinked: Self.nothingLinked)).isEmpty)
        #expect(discovery.tick(now: .seconds(66), isLinked: Self.nothingLinked).contains(.forget(endpoint)))
        #expect(discovery.counters.discoveryDials == 2 && discovery.counters.discoveryFailures == 1)
    }

    @Test func anAnnouncerThatDialledUsIsDialledWhenItsLinkDrops() {
        var discovery = Self.discovery()
        let endpoint = Self.endpoint(20)
        // It dialled us first: we only mark it linked.
        #expect(discovery.receive(Self.announcement(id: 7), from: Self.host(20), ttl: 1, now: .zero, isLinked: { $0 == endpoint }).isEmpty)
        #expect(Self.links(discovery.tick(now: .seconds(30), isLinked: Self.nothingLinked)) == [.dial(endpoint)])
        #expect(Self.links(discovery.tick(now: .seconds(31), isLinked: { $0 == endpoint })).isEmpty)
        #expect(discovery.neighbourCount == 1 && discovery.counters.discoveryFailures == 0)
    }

    @Test func aSilentAnnouncerIsForgotten() {
        var discovery = Self.discovery(maxNeighbours: 1)
        _ = discovery.receive(Self.announcement(id: 7), from: Self.host(20), ttl: 1, now: .zero, isLinked: Self.nothingLinked)
        _ = discovery.receive(Self.announcement(id: 8), from: Self.host(21), ttl: 1, now: .zero, isLinked: Self.nothingLinked)
        #expect(discovery.announcers.count == 2)
        _ = discovery.tick(now: .seconds(1), isLinked: { $0 == Self.endpoint(20) })
        _ = discovery.tick(now: .seconds(20), isLinked: { $0 == Self.endpoint(20) })
        #expect(discovery.announcers.keys.sorted() == [Self.host(20)])
    }

    @Test("A full announcer table drops the longest-silent idle entry; dialled and linked ones are never dropped",
          arguments: [2, 8])
    func announcerTableIsBounded(_ capacity: Int) {
        var discovery = Self.discovery(maxNeighbours: 1, maxAnnouncers: capacity)
        for last in UInt32(1)...UInt32(200) {
            _ = discovery.receive(Self.announcement(id: last), from: Self.host(last), ttl: 1, now: .milliseconds(Int(last)), isLinked: Self.nothingLinked)
        }
        #expect(discovery.announcers.count == capacity)
        #expect(discovery.announcers[Self.host(1)]?.state == .dialling(since: .milliseconds(1)))
        #expect(discovery.announcers[Self.host(200)] != nil)
        // Only dialled entries left: a newcomer finds no room.
        var full = Self.discovery(maxNeighbours: 2, maxAnnouncers: 2)
        _ = full.receive(Self.announcement(id: 1), from: Self.host(1), ttl: 1, now: .zero, isLinked: Self.nothingLinked)
        _ = full.receive(Self.announcement(id: 2), from: Self.host(2), ttl: 1, now: .zero, isLinked: Self.nothingLinked)
        #expect(full.receive(Self.announcement(id: 3), from: Self.host(3), ttl: 1, now: .zero, isLinked: Self.nothingLinked).isEmpty)
        #expect(full.counters.announcementsLimited == 1)
    }
}

/// The link table's side of discovery: a discovered neighbour is dialled like a configured one,
/// and forgetting it never touches configured peers or live links.
@Suite("LAN discovery in the link table")
struct LANDiscoveryTableTests {
    @Test func aDiscoveredNeighbourIsDialledAndLinks() throws {
        var pair = try TablePair(aListsB: false)
        #expect(!pair.a.isLinked(pair.addressB))
        pair.a.addDiscovered(pair.addressB, now: .zero)
        pair.a.addDiscovered(pair.addressB, now: .zero)
        #expect(pair.a.neighbours.count == 1)
        pair.tick(.zero)
        pair.deliver(.zero)
        #expect(pair.a.isLinked(pair.addressB) && pair.b.isLinked(pair.addressA))
        // Forgetting a linked neighbour keeps it.
        pair.a.forgetDiscovered(pair.addressB)
        #expect(pair.a.neighbours.count == 1)
    }

    @Test func forgettingDropsOnlyUnlinkedDiscoveredNeighbours() throws {
        var pair = try TablePair(aListsB: true)
        pair.a.addDiscovered(pair.addressB, now: .zero)
        pair.a.forgetDiscovered(pair.addressB)
        #expect(pair.a.neighbours.count == 1, "a configured peer stays")
        let other = try UDPEndpoint(parsing: "127.0.0.1:7003")
        pair.a.addDiscovered(other, now: .zero)
        #expect(pair.a.neighbours.count == 2)
        pair.a.forgetDiscovered(other)
        #expect(pair.a.neighbours.map(\.endpoint) == [pair.addressB])
    }
}
