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
    /// The lowest tag: this node dials every announcer first, unless a test says otherwise.
    static let ownID: UInt32 = 0

    static func host(_ last: UInt32) -> AnnouncementSource { .ipv4(0xC0A8_0100 | last) }
    static func endpoint(_ last: UInt32, port: UInt16 = 7101) -> UDPEndpoint {
        UDPEndpoint(ipv4: 0xC0A8_0100 | last, port: port, within: subnet)!
    }
    static func announcement(id: UInt32, port: UInt16 = 7101, uuid: [UInt8] = uuid) -> [UInt8] {
        LANAnnouncement(serviceUUID: uuid, instanceTag: id, port: port).encoded()
    }
    static func discovery(
        maxNeighbours: Int = 16, maxAnnouncers: Int = 64, jitter: Double = 0.25, seed: UInt64 = 1, tag: UInt32 = ownID, address: UInt32 = own
    ) -> LANDiscovery {
        LANDiscovery(
            configuration: LANDiscoveryConfiguration(
                announcement: LANAnnouncement(serviceUUID: uuid, instanceTag: tag, port: 7101), address: address, subnet: subnet,
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

/// The tie-break that keeps one link per pair of announcers: the lower instance tag dials, the
/// higher waits `dialFallback` for it and then dials itself.
@Suite("LAN discovery: one link per pair")
struct LANDiscoveryTieBreakTests {
    typealias Base = LANDiscoveryTests

    @Test("Only the announcer with the lower tag dials at once",
          arguments: [(UInt32(5), UInt32(6)), (6, 5), (0, .max), (.max, 0), (0x8000_0000, 0x7FFF_FFFF)])
    func lowerTagDials(own: UInt32, theirs: UInt32) {
        var discovery = Base.discovery(tag: own)
        let actions = discovery.receive(Base.announcement(id: theirs), from: Base.host(20), ttl: 1, now: .zero, isLinked: Base.nothingLinked)
        #expect(actions == (own < theirs ? [.dial(Base.endpoint(20))] : []))
        #expect(discovery.neighbourCount == 1, "waiting holds a neighbour slot like dialling")
    }

    @Test func aNewAnnouncerBringsTheNextAnnouncementForwardSoItHearsUs() {
        var discovery = Base.discovery(tag: 9)
        _ = discovery.tick(now: .zero, isLinked: Base.nothingLinked)
        // 0.3 s after our announcement: the next goes 1 s after it, not 5 s.
        _ = discovery.receive(Base.announcement(id: 3), from: Base.host(20), ttl: 1, now: .milliseconds(300), isLinked: Base.nothingLinked)
        #expect(discovery.nextAnnouncementAt == .seconds(1))
        // Long after: at once.
        var later = Base.discovery(jitter: 0, tag: 9)
        _ = later.tick(now: .zero, isLinked: Base.nothingLinked)
        _ = later.receive(Base.announcement(id: 3), from: Base.host(20), ttl: 1, now: .seconds(3), isLinked: Base.nothingLinked)
        #expect(later.nextAnnouncementAt == .seconds(3))
        #expect(later.tick(now: .seconds(3), isLinked: Base.nothingLinked) == [.announce(Base.announcement(id: 9))])
    }

    @Test("The higher tag dials after dialFallback when the lower never linked; not when it did",
          arguments: [false, true])
    func higherTagFallsBack(lowerDials: Bool) {
        var discovery = Base.discovery(tag: 9)
        let endpoint = Base.endpoint(20)
        let linked: (UDPEndpoint) -> Bool = { lowerDials && $0 == endpoint }
        _ = discovery.receive(Base.announcement(id: 3), from: Base.host(20), ttl: 1, now: .zero, isLinked: Base.nothingLinked)
        #expect(Base.links(discovery.tick(now: .milliseconds(9900), isLinked: linked)).isEmpty)
        #expect(Base.links(discovery.tick(now: .seconds(10), isLinked: linked)) == (lowerDials ? [] : [.dial(endpoint)]))
        #expect(discovery.counters.discoveryDials == (lowerDials ? 0 : 1))
    }

    @Test func whenTheLinkDropsOnlyTheLowerTagRedialsAtOnce() {
        let endpoint = Base.endpoint(20)
        var lower = Base.discovery(tag: 3)
        var higher = Base.discovery(tag: 9)
        _ = lower.receive(Base.announcement(id: 9), from: Base.host(20), ttl: 1, now: .zero, isLinked: { $0 == endpoint })
        _ = higher.receive(Base.announcement(id: 3), from: Base.host(20), ttl: 1, now: .zero, isLinked: { $0 == endpoint })
        #expect(Base.links(lower.tick(now: .seconds(30), isLinked: Base.nothingLinked)) == [.dial(endpoint)])
        #expect(Base.links(higher.tick(now: .seconds(30), isLinked: Base.nothingLinked)).isEmpty)
        #expect(Base.links(higher.tick(now: .seconds(40), isLinked: Base.nothingLinked)) == [.dial(endpoint)])
    }

    /// Two nodes on one LAN, stepped together every 100 ms for a minute: announcements reach both
    /// ways; a dial links when its dialler can reach the other (a firewall may block one way).
    @Test("Two announcers keep exactly one link, from the lower tag when it can reach the other, else from the higher",
          arguments: [(UInt32(3), UInt32(9), true, 0), (9, 3, true, 0), (3, 9, true, 2300), (9, 3, true, 4100),
                      (3, 9, false, 0), (9, 3, false, 0), (3, 9, false, 7000), (0, .max, false, 1200)])
    func aPairLinksOnce(tagA: UInt32, tagB: UInt32, lowerReachesHigher: Bool, bStartsAfterMilliseconds: Int) {
        let hostA = Base.host(10), hostB = Base.host(20)
        var a = Base.discovery(seed: 1, tag: tagA, address: 0xC0A8_0100 | 10)
        var b = Base.discovery(seed: 2, tag: tagB, address: 0xC0A8_0100 | 20)
        let lowerIsA = tagA < tagB
        var links: [String] = []  // who dialled each link that came up
        var firstLinkAt: Duration?
        for step in 0...600 {
            let now = Duration.milliseconds(step * 100)
            let bRuns = now >= .milliseconds(bStartsAfterMilliseconds)
            let isLinked: (UDPEndpoint) -> Bool = { _ in !links.isEmpty }
            var fromA = a.tick(now: now, isLinked: isLinked)
            var fromB = bRuns ? b.tick(now: now, isLinked: isLinked) : []
            for case .announce(let bytes) in fromA where bRuns {
                fromB += b.receive(bytes, from: hostA, ttl: 1, now: now, isLinked: isLinked)
            }
            for case .announce(let bytes) in fromB {
                fromA += a.receive(bytes, from: hostB, ttl: 1, now: now, isLinked: isLinked)
            }
            for (name, actions, isLower) in [("A", fromA, lowerIsA), ("B", fromB, !lowerIsA)] {
                for case .dial in actions where (isLower ? lowerReachesHigher : true) && !links.contains(name) {
                    links.append(name)
                    firstLinkAt = firstLinkAt ?? now
                }
            }
        }
        let lowerName = lowerIsA ? "A" : "B", higherName = lowerIsA ? "B" : "A"
        #expect(links == [lowerReachesHigher ? lowerName : higherName])
        // The lower tag hears the higher within about a second of both running (its early
        // announcement); the higher dials 10 s after hearing the lower.
        let bothRun = Duration.milliseconds(bStartsAfterMilliseconds)
        #expect(firstLinkAt.map { $0 - bothRun <= (lowerReachesHigher ? .milliseconds(1100) : .milliseconds(11_100)) } == true)
    }
}
