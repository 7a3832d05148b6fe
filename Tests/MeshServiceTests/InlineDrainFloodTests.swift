import Dispatch
import Glibc
import MeshLink
import MeshTestSupport
import Testing
import UDPTransport
@testable import MeshService

/// One event as the stand-in engine handled it: the frame's first byte (0 for a link event) and
/// whether the UDP reader thread ran it (the inline path) rather than a queue worker.
private struct Handled: Sendable {
    let tag: UInt8
    let onReader: Bool
}

/// Stands in for the engine: records what it handles and where, and spends a fixed amount of
/// work on each frame, far more than reading a datagram costs, so a flood outruns it.
private final class SlowConsumer: EngineInboxConsumer {
    let handled = Recorder<Handled>()

    func handle(_ event: TransportEvent) {
        guard case .frameReceived(_, let bytes) = event else {
            handled.append(Handled(tag: 0, onReader: Self.onReaderThread()))
            return
        }
        var state = UInt64(bytes.count)
        for _ in 0..<4_000_000 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        handled.append(Handled(tag: state == 0 ? 0 : bytes[0], onReader: Self.onReaderThread()))
    }

    func inboxDrained() {}

    /// True on the UDP transport's reader thread (named by `DetachedThread`).
    private static func onReaderThread() -> Bool {
        let descriptor = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var name = [UInt8](repeating: 0, count: 32)
        let count = read(descriptor, &name, name.count)
        return count > 0 && String(decoding: name.prefix(count), as: UTF8.self) == "udp-reader\n"
    }
}

@Suite("The UDP reader thread runs the engine inline only where no flood can starve a link", .serialized)
struct InlineDrainFloodTests {
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

    @Test("A link flooding faster than the engine cannot starve another link's frames, though the reader drains inline when it can")
    func floodDoesNotStarveAQuietLink() throws {
        let inbox = EngineInbox(queue: DispatchQueue(label: "inline-drain-flood"), limits: .init(framesPerLink: 16, totalFrames: 64))
        let consumer = SlowConsumer()
        let node = try UDPTransport(configuration: Self.configuration())
        try node.start(
            handler: { inbox.enqueue($0, for: consumer) },
            readerHooks: TransportReaderHooks(
                willDeliver: { inbox.readerBatchBegins() },
                didDeliver: { inbox.readerBatchEnded(socketBusy: $0, for: consumer) }))
        let (flooder, floodLink) = try Self.central(to: node.boundEndpoint)
        let (quiet, quietLink) = try Self.central(to: node.boundEndpoint)
        defer { flooder.stop(); quiet.stop(); node.stop() }
        #expect(consumer.handled.wait { $0.filter { $0.tag == 0 }.count == 2 }, "both links up at the node")

        let floodFrames = 1000
        let quietFrames = 10
        for index in 0..<floodFrames {
            _ = flooder.send([1, UInt8(truncatingIfNeeded: index)], on: floodLink)
            if index % (floodFrames / quietFrames) == floodFrames / quietFrames - 1 {
                #expect(quiet.send([2, UInt8(index / 100)], on: quietLink) == .sent)
            }
        }

        #expect(consumer.handled.wait(timeout: .seconds(60)) { $0.filter { $0.tag == 2 }.count == quietFrames },
                "every frame of the quiet link reaches the engine")
        let handled = consumer.handled.all
        let lastQuiet = try #require(handled.lastIndex { $0.tag == 2 })
        let floodAhead = handled[..<lastQuiet].filter { $0.tag == 1 }.count
        // Were the reader to run the engine while flood datagrams wait in its socket, the quiet
        // link's last frame would wait behind the 900 sent before it: a quarter of each 64-datagram
        // batch gets past the 16-frame share, about 240 frames of engine work. Reading on while a
        // worker drains, the node takes the flood in at once and sheds all but the share; the
        // quiet frame then waits only for what the engine handled while the flood was being sent.
        #expect(floodAhead < floodFrames / 8, "\(floodAhead) flood frames were handled before the quiet link's last")
        #expect(inbox.counters.0.shedPerLink > 0, "the flood outran the engine and was held to its share")
        #expect(handled.contains { $0.onReader }, "the reader thread ran the engine itself")
    }
}
