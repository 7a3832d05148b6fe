import Dispatch
import MeshCrypto
import MeshLink
import MeshNode
import Testing
@testable import MeshService

/// A transport that carries nothing, for runtimes that are never started.
private final class SilentTransport: MeshTransport {
    func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {}
    func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome { .gone }
    func disconnect(_ link: LinkID) {}
    func stop() {}
}

@Suite("State confined to a queue, checked")
struct QueueConfinedTests {
    @Test("On its queue the value reads and changes; elsewhere the box knows it is not")
    func onItsQueue() {
        let queue = DispatchQueue(label: "owner")
        let box = QueueConfined(1, queue: queue)
        queue.sync {
            box.value += 1
            #expect(box.value == 2)
            #expect(box.isOnQueue)
        }
        #expect(!box.isOnQueue)
        #expect(!QueueConfined(0, queue: queue).isOnQueue, "another box on the same queue is told apart from here")
    }

#if compiler(>=6.2)
    @Test("Reading confined state off its queue stops the process")
    func offQueueStops() async {
        await #expect(processExitsWith: .failure) {
            let box = QueueConfined([1, 2, 3], queue: DispatchQueue(label: "owner"))
            _ = box.value.count
        }
    }
#else
    @Test("Reading confined state off its queue stops the process", .disabled("exit tests (#expect(processExitsWith:)) need Swift 6.2 or later"))
    func offQueueStops() {}
#endif

#if compiler(>=6.2)
    @Test("The runtime's engine cannot be reached off the engine queue")
    func runtimeEngineOffQueueStops() async {
        await #expect(processExitsWith: .failure) {
            let identity = try NodeIdentity.generate()
            let runtime = NodeRuntime(
                identity: identity, engine: MeshEngine(identity: identity), transport: SilentTransport(),
                transportName: "none", logger: DaemonLogger(destination: .custom { _ in }))
            _ = runtime.engine.nodeID
        }
    }
#else
    @Test("The runtime's engine cannot be reached off the engine queue", .disabled("exit tests (#expect(processExitsWith:)) need Swift 6.2 or later"))
    func runtimeEngineOffQueueStops() {}
#endif

    @Test("On the engine queue the runtime's state is there")
    func runtimeOnQueue() throws {
        let identity = try NodeIdentity.generate()
        let runtime = NodeRuntime(
            identity: identity, engine: MeshEngine(identity: identity), transport: SilentTransport(),
            transportName: "none", logger: DaemonLogger(destination: .custom { _ in }))
        runtime.queue.sync { #expect(runtime.engine.nodeID == identity.nodeID && runtime.state == .starting) }
    }
}
