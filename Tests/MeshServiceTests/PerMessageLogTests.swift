import ControlProtocol
import MeshConfig
import MeshCrypto
import MeshLink
@testable import MeshNode
import MeshProtocol
import MeshTestSupport
import Testing
@testable import MeshService

/// A transport that carries nothing: the runtime is never started, events are reported by hand.
private final class QuietTransport: MeshTransport {
    func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {}
    func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome { .gone }
    func disconnect(_ link: LinkID) {}
    func stop() {}
}

@Suite("What the runtime logs once per message")
struct PerMessageLogTests {
    static let origin = NodeID(hex: "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")!
    static let messageID = MessageID(hex: "ffeeddccbbaa99887766554433221100")!
    static let delivered = EngineEvent.delivered(DeliveredMessage(
        messageID: messageID, origin: origin, destination: nil, hops: 1, timestamp: 0, text: "hello"))
    static let relayed = EngineEvent.relayed(messageID, kind: .message, hops: 2, count: 3, opaque: false)

    /// A runtime whose logger keeps every record written at `level`.
    static func runtime(level: LogLevel) throws -> (NodeRuntime, Recorder<LogRecord>) {
        let written = Recorder<LogRecord>()
        let logger = DaemonLogger(level: level, destination: .custom { record in written.append(record) })
        let identity = try NodeIdentity.generate()
        let runtime = NodeRuntime(
            identity: identity, engine: MeshEngine(identity: identity), transport: QuietTransport(),
            transportName: "none", logger: logger)
        return (runtime, written)
    }

    @Test("Deliveries and relays write nothing at info, so a flood costs no record per message")
    func nothingAtInfo() throws {
        let (runtime, written) = try Self.runtime(level: .info)
        runtime.queue.sync {
            runtime.report(Self.delivered)
            runtime.report(Self.relayed)
        }
        #expect(written.all.isEmpty)
    }

    @Test("At debug each delivery and each relay is one record")
    func oneRecordEachAtDebug() throws {
        let (runtime, written) = try Self.runtime(level: .debug)
        runtime.queue.sync {
            runtime.report(Self.delivered)
            runtime.report(Self.relayed)
        }
        let records = written.all
        #expect(records.map(\.level) == [.debug, .debug])
        #expect(records.map(\.event) == [.messageDelivered, .messageRelayed])
    }

    @Test("A watcher still sees every delivery")
    func watchersSeeDeliveries() throws {
        let (runtime, _) = try Self.runtime(level: .info)
        let seen = Recorder<WatchEvent>()
        _ = runtime.addWatcher { event in seen.append(event) }
        runtime.queue.sync { runtime.report(Self.delivered) }
        let events = seen.all
        #expect(events.count == 1)
        guard case .message(let id, _, _, _, _, _)? = events.first else {
            Issue.record("no message event: \(events)")
            return
        }
        #expect(id == Self.messageID)
    }
}
