import MeshLink
import MeshTestSupport
import Testing
@testable import UDPTransport

/// Real loopback sockets, short timers, bounded event-driven waits.
@Suite("UDP transport over loopback sockets")
struct UDPTransportTests {
    static func configuration(neighbours: [UDPEndpoint] = [], loss: Double = 0, mtu: Int = 185) throws -> UDPTransportConfiguration {
        UDPTransportConfiguration(
            bind: try UDPEndpoint(host: "127.0.0.1", port: 0), neighbours: neighbours, mtu: mtu, loss: loss,
            keepaliveInterval: .milliseconds(50), linkTimeout: .milliseconds(300), connectInterval: .milliseconds(50))
    }

    struct Node {
        let transport: UDPTransport
        let events = Recorder<TransportEvent>()

        init(_ configuration: UDPTransportConfiguration) throws {
            transport = try UDPTransport(configuration: configuration, randomSeed: nil)
            let events = events
            try transport.start { events.append($0) }
        }

        func waitForLink(role: LinkRole) -> LinkInfo? {
            events.wait { $0.contains { $0.upInfo?.role == role } }
            return events.all.compactMap(\.upInfo).first { $0.role == role }
        }
    }

    @Test func twoTransportsFormALinkAndFramesFlowBothWays() throws {
        let b = try Node(Self.configuration(mtu: 100))
        let a = try Node(Self.configuration(neighbours: [b.transport.boundEndpoint]))
        defer { a.transport.stop(); b.transport.stop() }
        let linkA = try #require(a.waitForLink(role: .central))
        let linkB = try #require(b.waitForLink(role: .peripheral))
        #expect(linkA.mtu == 100 && linkB.mtu == 100)
        #expect(linkB.remoteAddress == a.transport.boundEndpoint.description)
        #expect(a.transport.send([1, 2, 3], on: linkA.id) == .sent)
        #expect(b.transport.send(Array(repeating: 9, count: 100), on: linkB.id) == .sent)
        #expect(b.events.wait { $0.contains { $0.frame?.1 == [1, 2, 3] } })
        #expect(a.events.wait { $0.contains { $0.frame?.1 == Array(repeating: 9, count: 100) } })
        #expect(a.transport.links().map(\.id) == [linkA.id])
    }

    @Test func lossOfOneDropsEveryFrame() throws {
        let b = try Node(Self.configuration())
        let a = try Node(Self.configuration(neighbours: [b.transport.boundEndpoint], loss: 1))
        defer { b.transport.stop() }
        let link = try #require(a.waitForLink(role: .central))
        _ = try #require(b.waitForLink(role: .peripheral))
        for index in 0..<50 { #expect(a.transport.send([UInt8(index)], on: link.id) == .sent) }
        // Loopback keeps order: once B sees A's close, every earlier datagram has arrived.
        a.transport.stop()
        #expect(b.events.wait { $0.contains { $0.downLink?.1 == "closed by peer" } })
        #expect(b.events.all.compactMap(\.frame).isEmpty)
        #expect(a.transport.counters().framesLost == 50 && a.transport.counters().framesSent == 0)
    }

    @Test func linkGoesDownWhenThePeerStops() throws {
        let b = try Node(Self.configuration())
        let a = try Node(Self.configuration(neighbours: [b.transport.boundEndpoint]))
        defer { a.transport.stop() }
        let link = try #require(a.waitForLink(role: .central))
        b.transport.stop()
        #expect(a.events.wait { $0.contains { $0.downLink?.0 == link.id } })
        #expect(a.transport.send([1], on: link.id) == .gone)
    }

    @Test func silentPeerTimesOutAndGarbageIsCounted() throws {
        let a = try Node(Self.configuration())
        defer { a.transport.stop() }
        let peer = try UDPSocket.bind(UDPEndpoint(host: "127.0.0.1", port: 0))
        defer { peer.close() }
        let connect = UDPDatagram(type: .connect, fromCentral: true, instance: 7, linkNonce: 8, body: UDPDatagram.mtuBody(60))
        #expect(peer.send(connect.encoded(), to: a.transport.boundEndpoint) == .sent)
        #expect(peer.send([42] + Array(repeating: 0, count: 20), to: a.transport.boundEndpoint) == .sent)
        #expect(peer.send(Array(repeating: 3, count: 1000), to: a.transport.boundEndpoint) == .sent)
        let link = try #require(a.waitForLink(role: .peripheral))
        #expect(link.mtu == 60)
        #expect(waitReadable(peer.fd, timeout: .seconds(5)))
        guard case .datagram(let bytes, _, _) = peer.receive(capacity: 600, sources: .loopback) else {
            Issue.record("no accept")
            return
        }
        #expect(try UDPDatagram(decoding: bytes).type == .accept)
        // The peer now stays silent: the link must time out.
        #expect(a.events.wait { $0.contains { $0.downLink?.1 == "silent for 300ms" } })
        let counters = a.transport.counters()
        #expect(counters.unknownTypes == 1 && counters.oversizedDatagrams == 1)
    }

    @Test func centralKeepsTryingUntilTheNeighbourAppears() throws {
        let placeholder = try UDPSocket.bind(UDPEndpoint(host: "127.0.0.1", port: 0))
        let port = try placeholder.localEndpoint()
        placeholder.close()
        let a = try Node(Self.configuration(neighbours: [port]))
        defer { a.transport.stop() }
        var late = try Self.configuration()
        late.bind = port
        let b = try Node(late)
        defer { b.transport.stop() }
        #expect(a.waitForLink(role: .central) != nil)
        #expect(b.waitForLink(role: .peripheral) != nil)
    }

    @Test func frameLongerThanTheMTUClosesTheLink() throws {
        let b = try Node(Self.configuration(mtu: 40))
        let a = try Node(Self.configuration(neighbours: [b.transport.boundEndpoint]))
        defer { a.transport.stop(); b.transport.stop() }
        let link = try #require(a.waitForLink(role: .central))
        #expect(a.transport.send(Array(repeating: 0, count: 41), on: link.id) == .gone)
        #expect(a.events.wait { $0.contains { $0.downLink?.1 == "frame of 41 bytes exceeds MTU 40" } })
        #expect(a.transport.counters().oversizedSends == 1)
    }

    @Test func startTwiceFails() throws {
        let a = try Node(Self.configuration())
        defer { a.transport.stop() }
        #expect(throws: UDPTransportError.alreadyStarted) { try a.transport.start { _ in } }
    }
}
