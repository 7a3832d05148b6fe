import MeshLink
import Testing
@testable import UDPTransport

/// Two link tables wired back to back, driven by explicit times; no sockets, no clocks.
struct TablePair {
    var a: UDPLinkTable
    var b: UDPLinkTable
    let addressA: UDPEndpoint
    let addressB: UDPEndpoint
    var eventsA: [TransportEvent] = []
    var eventsB: [TransportEvent] = []
    /// Datagrams in flight, delivered by `deliver`.
    var wire: [(UDPDatagram, from: UDPEndpoint, to: UDPEndpoint)] = []

    init(aListsB: Bool = true, bListsA: Bool = false, configuration: (UDPTransportConfiguration) -> UDPTransportConfiguration = { $0 }) throws {
        addressA = try UDPEndpoint(parsing: "127.0.0.1:7001")
        addressB = try UDPEndpoint(parsing: "127.0.0.1:7002")
        let base = UDPTransportConfiguration(bind: addressA, keepaliveInterval: .seconds(1), linkTimeout: .seconds(4))
        var configurationA = configuration(base)
        configurationA.neighbours = aListsB ? [addressB] : []
        var configurationB = configuration(base)
        configurationB.bind = addressB
        configurationB.neighbours = bListsA ? [addressA] : []
        a = UDPLinkTable(configuration: configurationA, seed: 1)
        b = UDPLinkTable(configuration: configurationB, seed: 2)
    }

    mutating func take(_ actions: [UDPLinkTable.Action], from sender: UDPEndpoint) {
        for action in actions {
            switch action {
            case .send(let datagram, let to): wire.append((datagram, sender, to))
            case .emit(let event): if sender == addressA { eventsA.append(event) } else { eventsB.append(event) }
            }
        }
    }

    mutating func tick(_ now: Duration) {
        take(a.tick(now: now), from: addressA)
        take(b.tick(now: now), from: addressB)
    }

    /// Delivers everything in flight (and what that causes) at `now`, dropping datagrams `drop` says to.
    mutating func deliver(_ now: Duration, drop: (UDPDatagram) -> Bool = { _ in false }) {
        while !wire.isEmpty {
            let (datagram, from, to) = wire.removeFirst()
            if drop(datagram) { continue }
            if to == addressA { take(a.receive(datagram.encoded(), from: from, now: now), from: addressA) }
            if to == addressB { take(b.receive(datagram.encoded(), from: from, now: now), from: addressB) }
        }
    }
}

extension TransportEvent {
    var upInfo: LinkInfo? { if case .linkUp(let info) = self { info } else { nil } }
    var downLink: (LinkID, String)? { if case .linkDown(let link, let reason) = self { (link, reason) } else { nil } }
    var frame: (LinkID, [UInt8])? { if case .frameReceived(let link, let bytes) = self { (link, bytes) } else { nil } }
}

@Suite("UDP link table")
struct UDPLinkTableTests {
    @Test func centralConnectsAndBothSidesSeeTheLink() throws {
        var pair = try TablePair(configuration: { var s = $0; s.mtu = 100; return s })
        pair.tick(.zero)
        pair.deliver(.zero)
        let upA = try #require(pair.eventsA.first?.upInfo)
        let upB = try #require(pair.eventsB.first?.upInfo)
        #expect(upA.role == .central && upA.remoteAddress == "127.0.0.1:7002" && upA.mtu == 100)
        #expect(upB.role == .peripheral && upB.remoteAddress == "127.0.0.1:7001" && upB.mtu == 100)
    }

    @Test func framesFlowBothWaysWithinTheMTU() throws {
        var pair = try TablePair()
        pair.tick(.zero)
        pair.deliver(.zero)
        let linkA = try #require(pair.eventsA.first?.upInfo).id
        let linkB = try #require(pair.eventsB.first?.upInfo).id
        guard case .send(let toB, let addressB) = pair.a.planSend([1, 2, 3], on: linkA, now: .zero),
              case .send(let toA, let addressA) = pair.b.planSend([4], on: linkB, now: .zero) else {
            Issue.record("sends were not planned")
            return
        }
        pair.wire = [(toB, pair.addressA, addressB), (toA, pair.addressB, addressA)]
        pair.deliver(.zero)
        #expect(pair.eventsB.last?.frame?.1 == [1, 2, 3])
        #expect(pair.eventsA.last?.frame?.1 == [4])
        #expect(pair.a.planSend(Array(repeating: 0, count: 186), on: linkA, now: .zero) == .tooLong(mtu: 185))
        #expect(pair.a.planSend([1], on: LinkID(99), now: .zero) == .gone)
    }

    @Test("frames past a link's frame budget are counted and never reach the node", arguments: [FrameBudget(framesPerSecond: 10, burst: 5), .off])
    func frameBudgetDropsBeforeTheNode(budget: FrameBudget) throws {
        var pair = try TablePair(configuration: { var s = $0; s.frameBudget = budget; return s })
        pair.tick(.zero)
        pair.deliver(.zero)
        let linkA = try #require(pair.eventsA.first?.upInfo).id
        guard case .send(let frame, let addressB) = pair.a.planSend([7], on: linkA, now: .zero) else {
            Issue.record("no send planned")
            return
        }
        pair.wire = Array(repeating: (frame, pair.addressA, addressB), count: 20)
        pair.deliver(.zero)
        let delivered = pair.eventsB.compactMap(\.frame).count
        #expect(delivered == (budget.isOff ? 20 : 5))
        #expect(pair.b.counters.framesOverBudget == UInt64(20 - delivered))
        #expect(pair.b.counters.framesReceived == UInt64(delivered))
        // A tenth of a second later the rate has paid one frame back.
        pair.wire = Array(repeating: (frame, pair.addressA, addressB), count: 3)
        pair.deliver(.milliseconds(100))
        #expect(pair.eventsB.compactMap(\.frame).count == delivered + (budget.isOff ? 3 : 1))
    }

    @Test("frames of unknown links are each counted, and answered with a close only within the close budget")
    func closesForUnknownLinksAreBudgeted() throws {
        var table = UDPLinkTable(configuration: UDPTransportConfiguration(bind: try UDPEndpoint(parsing: "127.0.0.1:7001")), seed: 5)
        let source = try UDPEndpoint(parsing: "127.0.0.1:9000")
        var closes = 0
        for nonce in 0..<1_000 {
            let frame = UDPDatagram(type: .frame, fromCentral: true, instance: 1, linkNonce: UInt64(nonce), body: [1, 2, 3])
            closes += table.receive(frame.encoded(), from: source, now: .zero).count
        }
        #expect(closes == UDPLinkTable.closeBudget.burst)
        #expect(table.counters.unknownLinks == 1_000)
        #expect(table.counters.closesWithheld == UInt64(1_000 - closes))
        // A second later the budget has refilled.
        let late = UDPDatagram(type: .frame, fromCentral: true, instance: 1, linkNonce: 5_000, body: [1])
        #expect(table.receive(late.encoded(), from: source, now: .seconds(1)).count == 1)
    }

    @Test("connects past a host's connect budget are dropped before a link opens; another host is unaffected")
    func connectFloodFromOneHostIsCutInTheReadLoop() throws {
        var table = UDPLinkTable(configuration: UDPTransportConfiguration(
            bind: try UDPEndpoint(parsing: "10.0.0.1:7101", anyUnicast: true), maxLinks: 1_000,
            sources: IPv4Subnet(address: 0x0a00_0000, prefixLength: 24)), seed: 4)
        var linksUp = 0
        // 1,000 connects from one host, each from another port, in one instant.
        for port in 1...1_000 {
            let connect = UDPDatagram(type: .connect, fromCentral: true, instance: 9, linkNonce: UInt64(port), body: UDPDatagram.mtuBody(185))
            let source = try UDPEndpoint(parsing: "10.0.0.2:\(40_000 + port)", anyUnicast: true)
            linksUp += table.receive(connect.encoded(), from: source, now: .zero).filter { if case .emit(.linkUp) = $0 { true } else { false } }.count
        }
        #expect(linksUp == UDPLinkTable.connectBudget.burst)
        #expect(table.counters.connectsOverBudget == UInt64(1_000 - linksUp))
        let other = UDPDatagram(type: .connect, fromCentral: true, instance: 8, linkNonce: 1, body: UDPDatagram.mtuBody(185))
        let up = table.receive(other.encoded(), from: try UDPEndpoint(parsing: "10.0.0.3:7101", anyUnicast: true), now: .zero)
        #expect(up.contains { if case .emit(.linkUp) = $0 { true } else { false } })
        // A second later the flooding host has ten more.
        let later = UDPDatagram(type: .connect, fromCentral: true, instance: 9, linkNonce: 5_000, body: UDPDatagram.mtuBody(185))
        let again = table.receive(later.encoded(), from: try UDPEndpoint(parsing: "10.0.0.2:39999", anyUnicast: true), now: .seconds(1))
        #expect(again.contains { if case .emit(.linkUp) = $0 { true } else { false } })
    }

    @Test("link admission counts a LAN peer by host, a loopback peer by host and port")
    func admissionAddressIsTheHostOffLoopback() throws {
        var pair = try TablePair()
        pair.tick(.zero)
        pair.deliver(.zero)
        #expect(try #require(pair.eventsB.first?.upInfo).admissionAddress == "127.0.0.1:7001")
        var lan = UDPLinkTable(configuration: UDPTransportConfiguration(
            bind: try UDPEndpoint(parsing: "10.0.0.1:7101", anyUnicast: true), sources: IPv4Subnet(address: 0x0a00_0000, prefixLength: 24)), seed: 3)
        let connect = UDPDatagram(type: .connect, fromCentral: true, instance: 9, linkNonce: 4, body: UDPDatagram.mtuBody(185))
        let actions = lan.receive(connect.encoded(), from: try UDPEndpoint(parsing: "10.0.0.2:40000", anyUnicast: true), now: .zero)
        let up = actions.compactMap { action -> LinkInfo? in if case .emit(let event) = action { event.upInfo } else { nil } }
        #expect(up.map(\.admissionAddress) == ["10.0.0.2"])
        #expect(up.map(\.remoteAddress) == ["10.0.0.2:40000"])
    }

    @Test func dualRoleGivesTwoLinks() throws {
        var pair = try TablePair(aListsB: true, bListsA: true)
        pair.tick(.zero)
        pair.deliver(.zero)
        #expect(Set(pair.eventsA.compactMap(\.upInfo?.role)) == [.central, .peripheral])
        #expect(Set(pair.eventsB.compactMap(\.upInfo?.role)) == [.central, .peripheral])
    }

    @Test func keepalivesHoldTheLinkAndSilenceTakesItDown() throws {
        var pair = try TablePair()
        pair.tick(.zero)
        pair.deliver(.zero)
        for second in 1...10 {
            pair.tick(.seconds(second))
            pair.deliver(.seconds(second))
        }
        #expect(pair.eventsA.compactMap(\.downLink).isEmpty && pair.eventsB.compactMap(\.downLink).isEmpty)
        // B goes silent: only A ticks, and nothing A sends arrives.
        for second in 11...15 {
            pair.take(pair.a.tick(now: .seconds(second)), from: pair.addressA)
            pair.wire.removeAll()
        }
        let down = try #require(pair.eventsA.compactMap(\.downLink).first)
        #expect(down.1 == "silent for 4s")
        // A keeps trying to reconnect with a fresh nonce.
        pair.tick(.seconds(16))
        #expect(pair.wire.contains { $0.0.type == .connect })
    }

    @Test("A central repeats its connect with the same nonce until accepted; a new nonce only after the link goes down")
    func repeatedConnectKeepsItsNonce() throws {
        var pair = try TablePair()
        pair.tick(.zero)
        let first = try #require(pair.wire.first { $0.0.type == .connect }).0
        pair.deliver(.zero, drop: { $0.type == .accept })
        pair.tick(.seconds(1))
        let repeated = try #require(pair.wire.first { $0.0.type == .connect }).0
        #expect(repeated.linkNonce == first.linkNonce)
        pair.deliver(.seconds(1))
        #expect(pair.eventsB.compactMap(\.upInfo).count == 1, "the repeated connect made no second link")
        let up = try #require(pair.eventsA.compactMap(\.upInfo).first)
        take(pair.a.removeLink(up.id, reason: "test", notifyPeer: false, now: .seconds(2)), into: &pair)
        pair.tick(.seconds(2))
        let renewed = try #require(pair.wire.first { $0.0.type == .connect }).0
        #expect(renewed.linkNonce != first.linkNonce)
    }

    private func take(_ actions: [UDPLinkTable.Action], into pair: inout TablePair) {
        pair.take(actions, from: pair.addressA)
        pair.wire.removeAll()
    }

    @Test func restartedPeerIsANewLink() throws {
        var pair = try TablePair()
        pair.tick(.zero)
        pair.deliver(.zero)
        let first = try #require(pair.eventsB.first?.upInfo).id
        // A restarts: a new table with a new instance on the same address.
        var configuration = pair.a.configuration
        configuration.neighbours = [pair.addressB]
        pair.a = UDPLinkTable(configuration: configuration, seed: 99)
        pair.tick(.seconds(1))
        pair.deliver(.seconds(1))
        #expect(pair.eventsB.compactMap(\.downLink).map(\.0) == [first])
        #expect(pair.eventsB.compactMap(\.downLink).first?.1 == "peer restarted")
        let second = try #require(pair.eventsB.compactMap(\.upInfo).last).id
        #expect(second > first)
    }

    @Test func trafficForAnUnknownLinkIsAnsweredWithClose() throws {
        var pair = try TablePair()
        pair.tick(.zero)
        pair.deliver(.zero)
        let linkB = try #require(pair.eventsB.first?.upInfo).id
        // B restarts and loses its link; A's next keepalive is answered with close.
        pair.b = UDPLinkTable(configuration: pair.b.configuration, seed: 42)
        pair.tick(.seconds(1))
        pair.deliver(.seconds(1))
        #expect(pair.eventsA.compactMap(\.downLink).first?.1 == "closed by peer")
        #expect(pair.b.counters.unknownLinks >= 1)
        _ = linkB
    }

    @Test func maxLinksRefusesFurtherConnectsWhenEveryLinkIsKeyed() throws {
        var pair = try TablePair(configuration: { var s = $0; s.maxLinks = 1; return s })
        pair.tick(.zero)
        pair.deliver(.zero)
        pair.b.markKeyed(try #require(pair.eventsB.first?.upInfo).id, now: .zero)
        let stranger = try UDPEndpoint(parsing: "127.0.0.1:7003")
        let connect = UDPDatagram(type: .connect, fromCentral: true, instance: 5, linkNonce: 6, body: UDPDatagram.mtuBody(185))
        let actions = pair.b.receive(connect.encoded(), from: stranger, now: .zero)
        guard case .send(let reply, _)? = actions.first else {
            Issue.record("no reply")
            return
        }
        #expect(reply.type == .close && actions.count == 1)
        #expect(pair.b.counters.rejectedFull == 1)
    }

    @Test func lossOneDropsEveryFrameButNotTheLink() throws {
        var pair = try TablePair(configuration: { var s = $0; s.loss = 1; return s })
        pair.tick(.zero)
        pair.deliver(.zero)
        let link = try #require(pair.eventsA.first?.upInfo).id
        for _ in 0..<100 { #expect(pair.a.planSend([1], on: link, now: .zero) == .lost) }
        #expect(pair.a.counters.framesLost == 100)
    }

    @Test func partialLossIsRoughlyTheConfiguredFraction() throws {
        var pair = try TablePair(configuration: { var s = $0; s.loss = 0.25; return s })
        pair.tick(.zero)
        pair.deliver(.zero)
        let link = try #require(pair.eventsA.first?.upInfo).id
        let lost = (0..<4000).filter { _ in pair.a.planSend([1], on: link, now: .zero) == .lost }.count
        #expect((800...1200).contains(lost))
    }

    @Test func linkIDsAreNeverReused() throws {
        var pair = try TablePair()
        var seen: [LinkID] = []
        for round in 0..<5 {
            let now = Duration.seconds(round * 10)
            pair.tick(now)
            pair.deliver(now)
            let up = try #require(pair.eventsA.compactMap(\.upInfo).last).id
            seen.append(up)
            pair.take(pair.a.removeLink(up, reason: "test", notifyPeer: true, now: now), from: pair.addressA)
            pair.deliver(now)
        }
        #expect(Set(seen).count == 5)
        #expect(seen == seen.sorted())
    }

    @Test func badDatagramsAreCounted() throws {
        var pair = try TablePair()
        let from = pair.addressA
        _ = pair.b.receive([], from: from, now: .zero)
        _ = pair.b.receive([99] + Array(repeating: 0, count: 17), from: from, now: .zero)
        _ = pair.b.receive([3, 4] + Array(repeating: 0, count: 16), from: from, now: .zero)
        _ = pair.b.receive(Array(repeating: 3, count: 600), from: from, now: .zero)
        let counters = pair.b.counters
        #expect(counters.truncatedDatagrams == 1 && counters.unknownTypes == 1)
        #expect(counters.malformedDatagrams == 1 && counters.oversizedDatagrams == 1)
        #expect(counters.datagramsReceived == 4)
    }
}
