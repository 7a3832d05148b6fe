import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol
import MeshTestSupport
import Testing

/// One node running two transports at once, each numbering its links from 1 (issue 34 item 4):
/// behind ports of their own their links never meet. The middle engine has neighbour X on the
/// first transport's link 1 and neighbour Y on the second transport's link 1.
private final class TwoTransportNode {
    let middle: MeshEngine
    let x: MeshEngine
    let y: MeshEngine
    let radios = [HandTransport(), HandTransport()]
    let ports: [PortedTransport]
    var now: Duration = .zero
    var deliveredAtY: [DeliveredMessage] = []
    private let inbox = ReportedEvents()

    init() throws {
        middle = MeshEngine(identity: try NodeIdentity.generate(), random: SplitMix64(seed: 1))
        x = MeshEngine(identity: try NodeIdentity.generate(), random: SplitMix64(seed: 2))
        y = MeshEngine(identity: try NodeIdentity.generate(), random: SplitMix64(seed: 3))
        ports = [PortedTransport(radios[0], port: .first), PortedTransport(radios[1], port: PortID(1))]
        for port in ports {
            try port.start { [inbox] event in inbox.append(event) }
        }
        for radio in radios {
            radio.report(.linkUp(LinkInfo(id: LinkID(1), role: .central, remoteAddress: "far", mtu: 100)))
        }
        perform(x.handle(.linkUp(LinkInfo(id: LinkID(1), role: .peripheral, remoteAddress: "middle", mtu: 100)), now: now), at: 0)
        perform(y.handle(.linkUp(LinkInfo(id: LinkID(1), role: .peripheral, remoteAddress: "middle", mtu: 100)), now: now), at: 1)
        drain()
    }

    /// The far engine on the other side of `radio`'s link 1.
    private func far(_ radio: Int) -> MeshEngine { radio == 0 ? x : y }

    /// Performs what the far engine behind `radio` returned: its frames arrive on the radio's link 1.
    func perform(_ actions: [EngineAction], at radio: Int) {
        for action in actions {
            switch action {
            case .send(let frame, _): radios[radio].report(.frameReceived(LinkID(1), frame))
            case .event(.delivered(let message)) where radio == 1: deliveredAtY.append(message)
            default: break
            }
        }
    }

    /// Hands the middle engine's sends to the port its link names.
    private func performAtMiddle(_ actions: [EngineAction]) {
        for action in actions {
            switch action {
            case .send(let frame, let link): _ = ports[Int(link.port.index)].send(frame, on: link)
            case .disconnect(let link): ports[Int(link.port.index)].disconnect(link)
            default: break
            }
        }
    }

    /// Delivers everything in flight, in both directions, until nothing moves.
    func drain() {
        while true {
            let events = inbox.take()
            for event in events { performAtMiddle(middle.handle(event, now: now)) }
            var moved = !events.isEmpty
            for radio in radios.indices {
                for (link, frame) in radios[radio].takeSent() {
                    #expect(link == LinkID(1))  // the transport sees its own numbering
                    perform(far(radio).handle(.frameReceived(link, frame), now: now), at: radio)
                    moved = true
                }
            }
            if !moved { return }
        }
    }

    /// Moves the clock on and runs every engine's timers.
    func advance(_ duration: Duration) {
        now += duration
        performAtMiddle(middle.tick(now: now))
        perform(x.tick(now: now), at: 0)
        perform(y.tick(now: now), at: 1)
        drain()
    }

    /// The middle engine's ready links, by neighbour.
    var readyLinks: [NodeID: [LinkID]] {
        var links: [NodeID: [LinkID]] = [:]
        for neighbour in middle.neighbourSnapshots() {
            links[neighbour.nodeID] = neighbour.links.filter { $0.phase == .ready }.map(\.info.id)
        }
        return links
    }
}

@Suite("Transport ports: several transports in one node")
struct TransportPortTests {
    @Test func twoTransportsLinksOfTheSameNumberAreTwoLinksOfOneNode() throws {
        let node = try TwoTransportNode()
        node.advance(.seconds(1))
        #expect(node.readyLinks == [
            node.x.nodeID: [LinkID(1, port: .first)],
            node.y.nodeID: [LinkID(1, port: PortID(1))],
        ])
        #expect(Set(node.middle.linkSnapshots().map(\.info.id)).count == 2)
    }

    @Test func aMessageCrossesFromOneTransportToTheOther() throws {
        let node = try TwoTransportNode()
        node.advance(.seconds(1))
        let (_, actions) = try node.x.send(text: "across ports", now: node.now)
        node.perform(actions, at: 0)
        node.drain()
        #expect(node.deliveredAtY.map(\.text) == ["across ports"])
        #expect(node.deliveredAtY.map(\.hops) == [1])
        #expect(node.middle.kindCounters[.message].relayed == 1)
    }

    @Test func aLinkGoingDownOnOneTransportLeavesTheOtherTransportsLinkOfTheSameNumber() throws {
        let node = try TwoTransportNode()
        node.advance(.seconds(1))
        node.radios[0].report(.linkDown(LinkID(1), reason: "gone"))
        node.drain()
        #expect(node.middle.linkSnapshots().map(\.info.id) == [LinkID(1, port: PortID(1))])
        #expect(node.readyLinks[node.y.nodeID] == [LinkID(1, port: PortID(1))])
    }

    @Test func aPortedTransportTakesOnlyItsOwnPortsLinks() throws {
        let radio = HandTransport()
        let port = PortedTransport(radio, port: PortID(2))
        let events = ReportedEvents()
        try port.start { event in events.append(event) }
        radio.report(.frameReceived(LinkID(7), [1, 2]))
        guard case .frameReceived(let link, let frame)? = events.take().first else {
            Issue.record("no frame reported")
            return
        }
        #expect(link == LinkID(7, port: PortID(2)) && frame == [1, 2])
        #expect(link.description == "link#2.7" && LinkID(7).description == "link#7")
        #expect(port.send([3], on: LinkID(7)) == .gone)  // the first port's link 7 is another transport's
        port.disconnect(LinkID(7))
        #expect(port.send([3], on: link) == .sent)
        port.disconnect(link)
        #expect(radio.takeSent().map(\.link) == [LinkID(7)])
        #expect(radio.disconnected == [LinkID(7)])
    }
}
