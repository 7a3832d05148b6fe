import Dispatch
import Flooding
import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol
import Testing
@testable import MeshService

/// A transport that carries nothing: with the tick an hour apart, only the wake-up runs.
private final class IdleTransport: MeshTransport {
    func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {}
    func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome { .gone }
    func disconnect(_ link: LinkID) {}
    func stop() {}
}

/// A scheduler that says a relay is due at `dueAt` and signals when the engine asks for it then.
private struct WakeProbe: RelayScheduler {
    let asked: DispatchSemaphore
    var dueAt: Duration?
    var counters = RelaySchedulerCounters()

    mutating func schedule(_ plan: RelayPlan, neighbours: Int, now: Duration) {}
    mutating func observe(_ envelope: Envelope, from neighbour: NodeID, now: Duration) {}
    mutating func heard(_ copy: Envelope, from neighbour: NodeID, now: Duration) {}
    mutating func due(now: Duration) -> [ScheduledRelay] {
        if let dueAt, now >= dueAt {
            self.dueAt = nil
            asked.signal()
        }
        return []
    }
    var nextDue: Duration? { dueAt }
}

@Suite("The runtime wakes the engine for held relays")
struct RelayWakeupTests {
    @Test("A relay due between ticks is asked for at its time, with the next tick an hour away")
    func wakesAtTheDueTime() throws {
        let identity = try NodeIdentity.generate()
        let engine = MeshEngine(identity: identity)
        let asked = DispatchSemaphore(value: 0)
        engine.useScheduler(WakeProbe(asked: asked, dueAt: .milliseconds(30)))
        let runtime = NodeRuntime(
            identity: identity, engine: engine, transport: IdleTransport(), transportName: "none",
            logger: DaemonLogger(destination: .custom { _ in }))
        try runtime.start(tickInterval: .seconds(3600))
        defer { runtime.stop() }
        runtime.queue.sync { _ = runtime.perform([]) }
        #expect(asked.wait(timeout: .now() + .seconds(5)) == .success, "the held relay was never asked for")
        runtime.queue.sync {
            #expect(runtime.now >= .milliseconds(30), "asked for before it was due")
            #expect(runtime.driver.armedRelayWakeup == nil && runtime.engine.nextRelayDue == nil)
        }
    }
}
