import ControlProtocol
import Dispatch
import Glibc
import MeshCrypto
import Mailbox
import MailboxCourier
import MeshLink
import MeshNode
import MeshProtocol
import MQTTBridge
import Synchronization

/// Runs one engine against one transport (the daemon's: a ``TransportSet`` of every transport it
/// runs): the daemon's heart, shared by every transport.
///
/// The engine is confined to `queue`: transport events, timer ticks and control requests
/// all run there, one at a time, and the actions each returns are performed in order
/// before the next event. Nothing on the queue blocks: transports queue frames, watchers
/// only enqueue.
public final class NodeRuntime: Sendable {
    /// What only the engine queue may touch; every access is checked (`QueueConfined`).
    struct EngineQueueState {
        let engine: MeshEngine
        var watchers: [UInt64: @Sendable (WatchEvent) -> Void] = [:]
        var nextWatcher: UInt64 = 1
        var state = RuntimeState.starting
        var controlCounters: @Sendable () -> [String: UInt64] = { [:] }
        /// The mailbox (PROTOCOL.md Part G); nil when `[mailbox] enabled = false`.
        var mailbox: MailboxCourier?
        /// The MQTT bridge, when this node is a gateway (``NodeRuntime/startBridge(_:)``).
        var bridge: MQTTBridge?
        /// How the daemon runs, for `status`; nil in tests that run a bare runtime.
        var context: DaemonContext?
        /// What reloads could not do, for `status`.
        var reload = ReloadOutcome()
        /// The BlueZ advertisement's name of each epoch, when this node advertises (``NodeRuntime/rotateAdvertisedName(_:apply:)``).
        var advertising: AdvertisedNameRotation?
    }

    /// The serial queue that owns the engine.
    public var queue: DispatchQueue { confined.queue }
    /// The node's identity.
    public let nodeIdentity: NodeIdentity
    /// The transport's name for `status` (`udp`, `bluez`, `sim`; a ``TransportSet``'s names, `bluez,udp`).
    public let transportName: String
    let transport: any MeshTransport
    let logger: DaemonLogger
    let startedAt: ContinuousClock.Instant
    let confined: QueueConfined<EngineQueueState>
    /// The one way from transports into the engine queue: inbox, fairness, tick and relay wake-up.
    let driver: EngineDriver
    /// Where the seen cache's new IDs go, and what a delivery waits for; nil runs without one.
    let journal: SeenJournal?

    /// Creates a runtime; nothing runs until `start`.
    /// With a `journal`, the engine must keep its newly seen IDs (`MeshEngine.keepNewlySeen()`).
    public init(
        identity: NodeIdentity, engine: MeshEngine, transport: any MeshTransport, transportName: String, logger: DaemonLogger,
        journal: SeenJournal? = nil, mailbox: MailboxStore? = nil
    ) {
        self.nodeIdentity = identity
        self.journal = journal
        let queue = DispatchQueue(label: "meshnoded.engine")
        let startedAt = ContinuousClock.now
        self.confined = QueueConfined(EngineQueueState(engine: engine, mailbox: mailbox.map(MailboxCourier.init(store:))), queue: queue)
        self.driver = EngineDriver(queue: queue, now: { ContinuousClock.now - startedAt })
        self.transport = transport
        self.transportName = transportName
        self.logger = logger
        self.startedAt = startedAt
    }

    /// The engine; only on `queue`.
    var engine: MeshEngine { confined.value.engine }
    /// Watch sinks by token; only on `queue`.
    var watchers: [UInt64: @Sendable (WatchEvent) -> Void] {
        get { confined.value.watchers }
        _modify { yield &confined.value.watchers }
    }
    /// The next watch token; only on `queue`.
    var nextWatcher: UInt64 {
        get { confined.value.nextWatcher }
        _modify { yield &confined.value.nextWatcher }
    }
    /// Where the runtime is in its life; only on `queue`.
    var state: RuntimeState {
        get { confined.value.state }
        _modify { yield &confined.value.state }
    }
    /// The control server's counters; only on `queue`.
    var controlCounters: @Sendable () -> [String: UInt64] {
        get { confined.value.controlCounters }
        _modify { yield &confined.value.controlCounters }
    }
    /// The mailbox; only on `queue`.
    var mailboxCourier: MailboxCourier? { confined.value.mailbox }
    /// Engine time now: the monotonic time since the runtime was created.
    var now: Duration { ContinuousClock.now - startedAt }

    /// Supplies the control server's counters for `stats`.
    public func addControlCounters(_ source: @escaping @Sendable () -> [String: UInt64]) {
        queue.sync { controlCounters = source }
    }

    /// Starts the transport, whose events go to the driver, and the driver's tick (every `tickInterval`).
    public func start(tickInterval: Duration = .milliseconds(250)) throws {
        try transport.start { [driver] event in driver.enqueue(event) }
        queue.sync { state = .running }
        try driver.start(consumer: self, tickInterval: tickInterval)
    }

    /// Stops timers, the bridge and the transport (closing every link); pending actions are flushed first.
    public func stop() {
        let bridge = queue.sync {
            state = .stopping
            driver.stopTimers()
            perform(engine.tick(now: now))
            flushMailbox()
            return self.bridge
        }
        bridge?.stop()
        transport.stop()
    }

    /// The MQTT bridge, when started; only on `queue`.
    var bridge: MQTTBridge? { confined.value.bridge }

    /// Makes this node a gateway of the MQTT bridge (docs/PROTOCOL.md Part F) and starts the
    /// bridge's thread: what the broker delivers enters through the driver's bridge inbox, what the
    /// engine hands the bridge goes out with ``EngineAction/uplink(_:)``. Call after ``start(tickInterval:)``;
    /// the engine must have been built with ``EngineConfiguration/bridged``.
    public func startBridge(_ configuration: MQTTBridgeConfiguration) throws(MosquittoError) {
        let startedAt = startedAt
        // Reported on every attempt (seconds apart while the broker is away): logged once per change.
        let repeated = Mutex(RepeatedConditionLog())
        let bridge = try MQTTBridge(
            configuration: configuration, now: { ContinuousClock.now - startedAt },
            deliver: { [driver] envelope in driver.enqueueBridged(envelope) },
            report: { [logger] event in
                switch event {
                case .connected(let broker):
                    let ended = repeated.withLock { $0.clear("broker") }
                    let after = if case .ended(let repeats) = ended { " after \(repeats) failed attempt(s)" } else { "" }
                    logger.notice(.mqttBridge, "connected to MQTT broker \(broker)\(after)", LogFields(address: broker))
                case .unreachable(let broker, let reason, let retryIn):
                    let fields = LogFields(address: broker, reason: reason)
                    switch repeated.withLock({ $0.report("broker", summary: reason) }) {
                    case .started, .changed:
                        logger.warning(
                            .mqttBridge, "MQTT broker \(broker) unreachable: \(reason); retrying, logged again when it changes", fields)
                    default:
                        logger.debug(.mqttBridge, "MQTT broker \(broker) still unreachable: \(reason); next attempt in \(retryIn)", fields)
                    }
                }
            })
        queue.sync { confined.value.bridge = bridge }
        bridge.start()
    }

    /// The engine's seen cache now, to keep across a restart (call after ``stop()``).
    public func seenCacheSnapshot() -> SeenCacheSnapshot {
        queue.sync { engine.seenCacheSnapshot(now: now) }
    }

    /// Records how the daemon runs, for `status`.
    public func describe(_ context: DaemonContext) {
        queue.sync { confined.value.context = context }
    }

    /// Records what the last reload did, for `status`.
    public func recordReload(_ outcome: ReloadOutcome) {
        queue.sync { confined.value.reload = outcome }
    }

    /// Applies a reloaded hop-limit table.
    public func reload(_ configuration: EngineConfiguration) {
        queue.async { self.engine.reload(hopLimits: configuration.hopLimits) }
    }

    /// Handles one transport event on the engine queue.
    func handle(_ event: TransportEvent) {
        switch event {
        case .linkUp(let info):
            logger.info(.linkUp, "link up (\(info.role.rawValue), mtu \(info.mtu))",
                        LogFields(link: info.id, address: info.remoteAddress))
            broadcast(.link(up: info, transport: transportName(of: info.id)))
        case .linkDown(let link, let reason):
            let info = engine.linkInfo(link)
            logger.info(.linkDown, "link down: \(reason)", LogFields(link: link, address: info?.remoteAddress, reason: reason))
            broadcast(.link(down: link, reason: reason, transport: transportName(of: link)))
        case .mtuChanged, .rssiChanged, .frameReceived:
            break
        }
        perform(engine.handle(event, now: now))
    }

    /// Performs engine actions in order and says whether the transport took every frame among
    /// them. The seen cache's new IDs go to the journal first (``SeenJournal``).
    @discardableResult
    func perform(_ actions: [EngineAction]) -> Bool {
        if let journal { journal.append(engine.takeNewlySeen()) }
        var taken = true
        for action in actions {
            switch action {
            case .send(let frame, let link): taken = send(frame, on: link) && taken
            case .disconnect(let link): transport.disconnect(link)
            case .uplink(let envelope): bridge?.uplink(envelope)
            case .deposit(let envelope, let depositor): deposit(envelope, depositor: depositor)
            case .rememberDelivery(let id, let expiresAt): mailboxCourier?.rememberDelivery(id, until: expiresAt)
            case .preferLink(let link): transport.linkKeyed(link)
            case .event(let event): watch(event)
            }
        }
        driver.turnEnded(nextRelayDue: engine.nextRelayDue)
        return taken
    }

    /// Hands one frame to the transport, counts a refusal, and says whether it took the frame.
    func send(_ frame: [UInt8], on link: LinkID) -> Bool {
        let outcome = transport.send(frame, on: link)
        engine.recordSendFailure(outcome, on: link)
        return outcome == .sent
    }

    /// The name of the transport `link` belongs to: its ``TransportSet`` member's, or the one transport's.
    func transportName(of link: LinkID) -> String {
        (transport as? TransportSet)?.name(of: link) ?? transportName
    }

    /// Sends a watch event to every watcher; with none, the event is never built.
    func broadcast(_ event: @autoclosure () -> WatchEvent) {
        guard !watchers.isEmpty else { return }
        let built = event()
        for sink in watchers.values { sink(built) }
    }
}

extension NodeRuntime: EngineDriverConsumer {
    /// Runs an envelope from the MQTT bridge through the engine and performs what it returns.
    func handleBridged(_ envelope: Envelope) {
        perform(engine.receiveBridged(envelope, now: now))
    }

    /// Runs the engine's tick and performs what it returns.
    func tick() {
        perform(engine.tick(now: now))
        runMailbox()
        renameAdvertisementIfDue()
    }

    /// Sends the relays due by now (the relay wake-up; the end of every drain turn, for relays
    /// that fell due while the queue was busy). The engine also flushes them on every new message.
    func sendDueRelays() {
        guard let due = engine.nextRelayDue, due <= now else { return }
        perform(engine.sendDueRelays(now: now))
    }
}
