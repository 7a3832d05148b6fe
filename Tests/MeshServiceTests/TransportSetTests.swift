import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol
import MeshService
import MeshTestSupport
import Testing

/// A middle engine behind a `TransportSet` of two hand-driven transports, and far engines linked
/// to it only: by default X on the first transport's link 1, Y and Z on the second's links 1 and
/// 2, so X cannot reach Y or Z but through the middle.
private final class BridgingNode {
    /// One connection: far engine `far`'s link `farLink` is link `link` of radio `radio`.
    struct Place {
        let far: Int
        let radio: Int
        let link: LinkID
        var farLink = LinkID(1)
    }
    let middle: MeshEngine
    let far: [MeshEngine]
    let places: [Place]
    let radios = [HandTransport(), HandTransport()]
    let set: TransportSet
    var now: Duration = .zero
    var delivered: [[DeliveredMessage]]
    private let inbox = ReportedEvents()

    init(places: [Place] = [Place(far: 0, radio: 0, link: LinkID(1)), Place(far: 1, radio: 1, link: LinkID(1)),
                            Place(far: 2, radio: 1, link: LinkID(2))]) throws {
        self.places = places
        middle = MeshEngine(identity: try NodeIdentity.generate(), random: SplitMix64(seed: 1))
        let count = (places.map(\.far).max() ?? 0) + 1
        far = try (0..<count).map { MeshEngine(identity: try NodeIdentity.generate(), random: SplitMix64(seed: UInt64($0 + 2))) }
        delivered = Array(repeating: [], count: count)
        set = TransportSet([("udp", radios[0]), ("lan", radios[1])])
        try set.start { [inbox] event in inbox.append(event) }
        for place in places {
            radios[place.radio].report(.linkUp(LinkInfo(id: place.link, role: .central, remoteAddress: "far\(place.far)", mtu: 100)))
            perform(far[place.far].handle(.linkUp(LinkInfo(id: place.farLink, role: .peripheral, remoteAddress: "middle", mtu: 100)),
                                          now: now), from: place.far)
        }
        drain()
    }

    /// Performs what far engine `index` returned: each frame arrives on the middle's end of the far link it was sent on.
    func perform(_ actions: [EngineAction], from index: Int) {
        for action in actions {
            switch action {
            case .send(let frame, let farLink):
                guard let place = places.first(where: { $0.far == index && $0.farLink == farLink }) else {
                    Issue.record("far engine \(index) sent on \(farLink), which it does not have")
                    continue
                }
                radios[place.radio].report(.frameReceived(place.link, frame))
            case .event(.delivered(let message)): delivered[index].append(message)
            default: break
            }
        }
    }

    /// Hands the middle engine's actions to the set, as `NodeRuntime.perform` does.
    private func performAtMiddle(_ actions: [EngineAction]) {
        for action in actions {
            switch action {
            case .send(let frame, let link): _ = set.send(frame, on: link)
            case .disconnect(let link): set.disconnect(link)
            case .preferLink(let link): set.linkKeyed(link)
            default: break
            }
        }
    }

    /// Delivers everything in flight, both ways, until nothing moves.
    func drain() {
        while true {
            let events = inbox.take()
            for event in events { performAtMiddle(middle.handle(event, now: now)) }
            var moved = !events.isEmpty
            for radio in radios.indices {
                for (link, frame) in radios[radio].takeSent() {
                    guard let place = places.first(where: { $0.radio == radio && $0.link == link }) else {
                        Issue.record("a frame on \(link) of radio \(radio), which has no such link")
                        continue
                    }
                    perform(far[place.far].handle(.frameReceived(place.farLink, frame), now: now), from: place.far)
                    moved = true
                }
            }
            if !moved { return }
        }
    }

    func advance(_ duration: Duration) {
        now += duration
        performAtMiddle(middle.tick(now: now))
        for index in far.indices { perform(far[index].tick(now: now), from: index) }
        drain()
    }
}

@Suite("TransportSet: several transports in one node, seen by the engine as one")
struct TransportSetTests {
    @Test("Each transport runs on the port of its place; what is sent, closed or keyed goes to the link's own transport under its own number")
    func routesByPort() throws {
        let radios = [HandTransport(), HandTransport()]
        let set = TransportSet([("bluez", radios[0]), ("udp", radios[1])])
        let inbox = ReportedEvents()
        try set.start { event in inbox.append(event) }
        radios[1].report(.frameReceived(LinkID(3), [9]))
        radios[0].report(.linkDown(LinkID(3), reason: "gone"))
        let events = inbox.take()
        guard events.count == 2, case .frameReceived(let link, _) = events[0], case .linkDown(let down, _) = events[1] else {
            Issue.record("events: \(events)")
            return
        }
        #expect(link == LinkID(3, port: PortID(1)) && down == LinkID(3, port: .first))
        #expect(set.name == "bluez,udp")
        #expect(set.name(of: link) == "udp" && set.name(of: down) == "bluez" && set.name(of: LinkID(3, port: PortID(2))) == nil)
        #expect(set.send([1], on: link) == .sent)
        #expect(set.send([1], on: LinkID(3, port: PortID(5))) == .gone)
        set.disconnect(down)
        set.linkKeyed(link)
        #expect(radios[1].takeSent().map(\.link) == [LinkID(3)] && radios[0].takeSent().isEmpty)
        #expect(radios[0].disconnected == [LinkID(3)] && radios[1].disconnected.isEmpty)
        #expect(radios[1].keyed == [LinkID(3)] && radios[0].keyed.isEmpty)
        set.stop()
        #expect(radios[0].stopped && radios[1].stopped)
    }

    @Test("The set's status sums counters of the same name and keeps each transport's own")
    func statusSumsAndKeepsEach() {
        let set = TransportSet([
            ("bluez", HandTransport(counters: ["links_up": 2, "frames_refused": 1], summary: "running on hci0")),
            ("udp", HandTransport(counters: ["links_up": 3, "datagrams_sent": 7])),
        ])
        #expect(set.status == TransportStatus(counters: ["links_up": 5, "frames_refused": 1, "datagrams_sent": 7], summary: "running on hci0"))
        #expect(set.statusByTransport.map(\.name) == ["bluez", "udp"])
        #expect(set.statusByTransport[1].status.counters == ["links_up": 3, "datagrams_sent": 7])
    }

    @Test("A transport that fails to start stops those started before it, and the error names it")
    func failedStartStopsTheOthers() {
        let first = HandTransport()
        let set = TransportSet([("udp", first), ("lan", HandTransport(startFailure: "port in use"))])
        #expect(throws: TransportSetError.startFailed(transport: "lan", reason: "port in use")) {
            try set.start { _ in }
        }
        #expect(first.stopped)
    }

    @Test("A message from the first transport's neighbour reaches each neighbour on the second exactly once, and back")
    func relaysAcrossTransportsExactlyOnce() throws {
        let node = try BridgingNode()
        node.advance(.seconds(1))
        #expect(node.middle.neighbourSnapshots().count == 3)
        let (_, actions) = try node.far[0].send(text: "from udp to lan", now: node.now)
        node.perform(actions, from: 0)
        node.drain()
        node.advance(.seconds(1))  // managed flooding may hold a relay a few milliseconds
        #expect(node.delivered[1].map(\.text) == ["from udp to lan"])
        #expect(node.delivered[2].map(\.text) == ["from udp to lan"])
        #expect(node.delivered[1].map(\.hops) == [1])
        #expect(node.middle.kindCounters[.message].relayed == 2)  // one copy per neighbour on the other transport
        #expect(node.middle.kindCounters[.message].delivered == 1)
        #expect(node.far[0].kindCounters[.message].received == 0)  // never back to where it came from

        let (_, back) = try node.far[1].send(text: "back again", now: node.now)
        node.perform(back, from: 1)
        node.drain()
        node.advance(.seconds(1))
        #expect(node.delivered[0].map(\.text) == ["back again"])
        #expect(node.delivered[2].map(\.text) == ["from udp to lan", "back again"])
        #expect(node.middle.kindCounters[.message].relayed == 4)
    }

    @Test("A neighbour linked over both transports is one neighbour with two links, and gets each message once")
    func oneNeighbourOnTwoTransportsGetsOneCopy() throws {
        // X on the first transport; Y on both (its links 1 and 2).
        let node = try BridgingNode(places: [
            .init(far: 0, radio: 0, link: LinkID(1)),
            .init(far: 1, radio: 0, link: LinkID(2), farLink: LinkID(1)),
            .init(far: 1, radio: 1, link: LinkID(1), farLink: LinkID(2)),
        ])
        node.advance(.seconds(1))
        let y = try #require(node.middle.neighbourSnapshots().first { $0.nodeID == node.far[1].nodeID })
        #expect(Set(y.links.map(\.info.id)) == [LinkID(2, port: .first), LinkID(1, port: PortID(1))])
        let (_, actions) = try node.far[0].send(text: "once", now: node.now)
        node.perform(actions, from: 0)
        node.drain()
        node.advance(.seconds(1))
        #expect(node.delivered[1].map(\.text) == ["once"])
        #expect(node.middle.kindCounters[.message].relayed == 1)
        #expect(node.far[1].kindCounters[.message].received == 1)
    }
}
