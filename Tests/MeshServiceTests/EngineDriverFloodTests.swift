import Dispatch
import MeshLink
import MeshProtocol
import MeshTestSupport
import Testing
import UDPTransport
@testable import MeshService

/// Stands in for the engine: records the first byte of every frame it handles (0 for a link event).
private final class RecordingConsumer: EngineDriverConsumer {
    let handled = Recorder<UInt8>()

    func handle(_ event: TransportEvent) {
        if case .frameReceived(_, let bytes) = event {
            handled.append(bytes.first ?? 0)
        } else {
            handled.append(0)
        }
    }

    func tick() {}
    func sendDueRelays() {}
    func handleBridged(_ envelope: Envelope) {}
}

/// The flood is sent while the engine queue is held busy, so that the engine is slower than the
/// flood by construction, not by the machine's speed: every datagram is in the inbox (or shed)
/// before the engine handles one, and what it then handles, and in which order, is exact.
@Suite("The engine driver keeps a flooding link from starving another", .serialized)
struct EngineDriverFloodTests {
    static func configuration(neighbours: [UDPEndpoint] = []) throws -> UDPTransportConfiguration {
        UDPTransportConfiguration(
            bind: try UDPEndpoint(host: "127.0.0.1", port: 0), neighbours: neighbours, mtu: 185, loss: 0,
            keepaliveInterval: .milliseconds(100), linkTimeout: .seconds(5), connectInterval: .milliseconds(50))
    }

    /// Starts a central towards `target` and returns it with its link, once up.
    static func central(to target: UDPEndpoint) throws -> (UDPTransport, LinkID) {
        let transport = try UDPTransport(configuration: configuration(neighbours: [target]))
        let ups = Recorder<LinkID>()
        try transport.start { event in if case .linkUp(let info) = event { ups.append(info.id) } }
        #expect(ups.wait { !$0.isEmpty }, "no link to the node")
        return (transport, try #require(ups.all.first))
    }

    @Test("Over real UDP, a link flooding a busy engine is held to its share and the quiet link's frames come in turn")
    func floodDoesNotStarveAQuietLink() throws {
        let share = 64
        let queue = DispatchQueue(label: "engine-driver-flood")
        let driver = EngineDriver(queue: queue, limits: .init(framesPerLink: share, totalFrames: 4 * share), now: { .zero })
        let consumer = RecordingConsumer()
        let arrived = Recorder<Int>()
        let node = try UDPTransport(configuration: Self.configuration())
        try node.start { event in
            driver.enqueue(event)
            arrived.append(1)
        }
        try driver.start(consumer: consumer, tickInterval: .seconds(3600))
        let (flooder, floodLink) = try Self.central(to: node.boundEndpoint)
        let (quiet, quietLink) = try Self.central(to: node.boundEndpoint)
        defer { flooder.stop(); quiet.stop(); node.stop() }
        #expect(consumer.handled.wait { $0.count == 2 }, "both links up at the node")

        let busy = DispatchSemaphore(value: 0)
        queue.async { busy.wait() }
        let floodFrames = 1000
        let quietFrames = 10
        for index in 0..<floodFrames {
            #expect(flooder.send([1, UInt8(truncatingIfNeeded: index)], on: floodLink) == .sent)
            if index % (floodFrames / quietFrames) == floodFrames / quietFrames - 1 {
                #expect(quiet.send([2, UInt8(index / 100)], on: quietLink) == .sent)
                // Paced by arrival, not by time: a loaded machine's reader thread must not fall so
                // far behind that the kernel's socket buffer drops datagrams (that is not the inbox's doing).
                let sent = 2 + index + 1 + (index + 1) / (floodFrames / quietFrames)
                #expect(arrived.wait(timeout: .seconds(60)) { $0.count == sent }, "datagrams reached the driver")
            }
        }
        #expect(arrived.wait(timeout: .seconds(60)) { $0.count == 2 + floodFrames + quietFrames },
                "every datagram reached the driver while the engine was busy")
        busy.signal()

        #expect(consumer.handled.wait(timeout: .seconds(60)) { $0.filter { $0 == 2 }.count == quietFrames },
                "every frame of the quiet link reaches the engine")
        let handled = consumer.handled.all
        let lastQuiet = try #require(handled.lastIndex(of: 2))
        let floodAhead = handled[..<lastQuiet].filter { $0 == 1 }.count
        // Links are served in turn, so at most one flood frame goes before each quiet one; in
        // arrival order the flood's whole share (64) would.
        #expect(floodAhead <= quietFrames, "\(floodAhead) flood frames were handled before the quiet link's last")
        let counters = driver.inboxCounters.0
        #expect(counters.shedPerLink == UInt64(floodFrames - share), "the flood was held to its share, exactly")
        #expect(counters.shedTotal == 0)
        #expect(consumer.handled.wait { $0.filter { $0 == 1 }.count == share }, "the flood's share was handled")
    }
}
