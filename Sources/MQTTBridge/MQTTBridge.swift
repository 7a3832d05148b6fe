import CMosquitto
import Glibc
import MeshProtocol
import PosixThread
import Synchronization

/// The gateway's side of the MQTT bridge (docs/PROTOCOL.md Part F): publishes what the engine
/// hands it, and hands the engine what the broker delivers once ``DownlinkAdmission`` let it in.
///
/// One thread of its own (`mqtt-bridge`) connects, runs libmosquitto's network loop, subscribes
/// after each connection and publishes what waited in the ``UplinkQueue`` during an outage, with
/// ``ReconnectBackoff`` between attempts. `uplink` (the engine's queue) never waits for the network:
/// it publishes straight away when connected and nothing waits, else queues. Downlink callbacks run
/// on the bridge thread and only call `deliver`, which must not block (the engine driver's bounded
/// bridge inbox).
public final class MQTTBridge: Sendable {
    private struct Shared {
        var state: MQTTBridgeState = .stopped
        var lastError: String?
        var queue: UplinkQueue
        var admission: DownlinkAdmission
        var counters = MQTTBridgeCounters()
        var backoff: ReconnectBackoff
        var resubscribe = false
        /// The broker's reason for refusing the last connection (bad login, not authorized), which
        /// says more than the closed socket that follows it.
        var refusal: String?
    }

    /// The shared state behind its lock; a class, so the libmosquitto callbacks can hold it too.
    private final class Locked: Sendable {
        let mutex: Mutex<Shared>
        init(_ value: sending Shared) { mutex = Mutex(value) }
        // Result is Sendable rather than `sending`: Swift 6.0's region checker rejects handing a
        // generic `sending` result through (every caller returns plain values).
        func withLock<Result: Sendable>(_ body: (inout sending Shared) -> Result) -> Result {
            mutex.withLock { (state) -> Result in body(&state) }
        }
    }

    /// The configuration in force.
    public let configuration: MQTTBridgeConfiguration
    private let shared: Locked
    private let client: MosquittoClient
    private let now: @Sendable () -> Duration
    private let report: @Sendable (MQTTBridgeEvent) -> Void
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    /// Creates a stopped bridge; `now` is engine time, `deliver` takes an admitted envelope to the
    /// engine and returns false when it had no room; `report` hears connections made and lost (on
    /// the bridge's thread; it must not block).
    public init(
        configuration: MQTTBridgeConfiguration, now: @escaping @Sendable () -> Duration,
        deliver: @escaping @Sendable (Envelope) -> Bool, report: @escaping @Sendable (MQTTBridgeEvent) -> Void = { _ in }
    ) throws(MosquittoError) {
        self.configuration = configuration
        self.now = now
        self.report = report
        let broker = "\(configuration.host):\(configuration.port)"
        let start = now()
        let shared = Locked(Shared(
            queue: UplinkQueue(capacity: configuration.queueCapacity),
            admission: DownlinkAdmission(layout: configuration.layout, limits: configuration.downlink, now: start),
            backoff: configuration.backoff))
        self.shared = shared
        let events = MosquittoEvents(
            connected: { reason in
                if reason == 0 { report(.connected(broker: broker)) }
                shared.withLock { state in
                    if reason == 0 {
                        state.state = .connected
                        state.counters.connects += 1
                        state.backoff.connected()
                        state.resubscribe = true
                    } else {
                        state.refusal = MosquittoClient.describe(reason: reason)
                        state.lastError = state.refusal
                    }
                }
            },
            disconnected: { reason in
                shared.withLock { state in
                    if reason != 0 { state.lastError = MosquittoClient.describe(reason: reason) }
                }
            },
            message: { topic, payload in
                let verdict = shared.withLock { state -> DownlinkVerdict in
                    state.counters.received += 1
                    return state.admission.admit(topic: topic, payload: payload, now: now())
                }
                guard case .admit(let envelope) = verdict, !deliver(envelope) else { return }
                shared.withLock { $0.admission.refuseAdmitted(.inboxFull) }
            })
        client = try MosquittoClient(clientID: configuration.clientID, events: events)
        try client.configure(configuration.credentials)
    }

    /// `host:port` of the broker.
    public var broker: String { "\(configuration.host):\(configuration.port)" }

    /// The state, last error and counters now; any thread.
    public var status: MQTTBridgeStatus {
        shared.withLock { state in
            var counters = state.counters
            counters.record(state.admission)
            counters.droppedQueueFull = state.queue.droppedOldest
            counters.queueDepth = UInt64(state.queue.count)
            return MQTTBridgeStatus(state: state.state, broker: broker, lastError: state.lastError, counters: counters)
        }
    }

    /// Starts the bridge thread; it connects at once. Returns pthread's error number, 0 on success.
    @discardableResult
    public func start() -> Int32 {
        shared.withLock { $0.state = .connecting }
        return DetachedThread.start(name: "mqtt-bridge") { [self] in run() }
    }

    /// Stops the thread and closes the connection; waits up to 2 s for the thread to leave.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        client.disconnect()
        for _ in 0..<200 where !finished.load(ordering: .acquiring) { usleep(10_000) }
        shared.withLock { $0.state = .stopped }
    }

    /// Publishes an envelope the engine accepted or originated (``MQTTTopic/init(for:)``); from
    /// the engine's queue, never waiting for the network.
    public func uplink(_ envelope: Envelope) {
        guard let topic = MQTTTopic(for: envelope) else { return }
        let item = UplinkItem(
            topic: configuration.layout.name(of: topic), payload: envelope.encoded(),
            qos: topic.isLookup ? 0 : envelope.destination == nil ? configuration.broadcastQoS : 1)
        let publishNow = shared.withLock { state -> Bool in
            // A key request or answer is no use after an outage (its lookup asks again) and must
            // not push direct messages out of the queue: it goes now or never (PROTOCOL.md F3).
            if topic.isLookup {
                if state.state != .connected { state.counters.droppedLookupOffline += 1 }
                return state.state == .connected
            }
            guard state.state == .connected, state.queue.isEmpty else {
                state.queue.push(item)
                return false
            }
            return true
        }
        guard publishNow else { return }
        let code = client.publish(item)
        shared.withLock { state in
            if code == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                state.counters.published += 1
            } else {
                state.counters.publishFailures += 1
                if !topic.isLookup { state.queue.push(item) }
            }
        }
    }

    private func run() {
        defer { finished.store(true, ordering: .releasing) }
        var generator = SystemRandomNumberGenerator()
        var everConnected = false
        while !stopping.load(ordering: .acquiring) {
            if shared.withLock({ $0.state }) != .connected, !everConnected || !isLive {
                let code = everConnected
                    ? client.reconnect()
                    : client.connect(
                        host: configuration.host, port: configuration.port, keepAlive: configuration.keepAliveSeconds,
                        sessionExpiry: configuration.sessionExpirySeconds,
                        maxPacketBytes: configuration.downlink.maxPacketBytes(layout: configuration.layout))
                guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
                    wait(failure: MosquittoClient.describe(code), generator: &generator)
                    continue
                }
                everConnected = true
                live.store(true, ordering: .releasing)
            }
            let code = client.loop(milliseconds: 500)
            guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
                live.store(false, ordering: .releasing)
                guard !stopping.load(ordering: .acquiring) else { break }
                shared.withLock { if $0.state == .connected { $0.state = .connecting } }
                wait(failure: MosquittoClient.describe(code), generator: &generator)
                continue
            }
            subscribeIfNeeded()
            flushQueue()
        }
    }

    private let live = Atomic<Bool>(false)
    private var isLive: Bool { live.load(ordering: .acquiring) }

    /// Records a failure, then sleeps the backoff's next wait (in slices, so `stop` is quick).
    private func wait(failure: String, generator: inout SystemRandomNumberGenerator) {
        let delay = shared.withLock { state -> Duration in
            let delay = state.backoff.nextDelay(fraction: Double.random(in: 0...1, using: &generator))
            state.lastError = state.refusal ?? failure
            state.refusal = nil
            state.counters.reconnects += 1
            state.state = .reconnecting(at: now() + delay)
            return delay
        }
        report(.unreachable(broker: broker, reason: shared.withLock { $0.lastError } ?? failure, retryIn: delay))
        let deadline = now() + delay
        while now() < deadline, !stopping.load(ordering: .acquiring) { usleep(50_000) }
        shared.withLock { if case .reconnecting = $0.state { $0.state = .connecting } }
    }

    private func subscribeIfNeeded() {
        let needed = shared.withLock { state -> Bool in
            defer { state.resubscribe = false }
            return state.resubscribe
        }
        guard needed else { return }
        for filter in configuration.layout.subscriptions {
            let code = client.subscribe(filter)
            if code != Int32(MOSQ_ERR_SUCCESS.rawValue) { shared.withLock { $0.lastError = MosquittoClient.describe(code) } }
        }
    }

    /// Publishes what waited, oldest first, at most 256 a turn so the network loop keeps running.
    private func flushQueue() {
        for _ in 0..<256 {
            guard let item = shared.withLock({ $0.state == .connected ? $0.queue.first : nil }) else { return }
            let code = client.publish(item)
            let ok = shared.withLock { state -> Bool in
                guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
                    state.counters.publishFailures += 1
                    return false
                }
                if state.queue.first == item { _ = state.queue.pop() }
                state.counters.published += 1
                return true
            }
            guard ok else { return }
        }
    }
}
