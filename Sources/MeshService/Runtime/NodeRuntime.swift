import ControlProtocol
import Dispatch
import Glibc
import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol
import Synchronization

/// Runs one engine against one transport: the daemon's heart, shared by every transport.
///
/// The engine is confined to `queue`: transport events, timer ticks and control requests
/// all run there, one at a time, and the actions each returns are performed in order
/// before the next event. Nothing on the queue blocks: transports queue frames, watchers
/// only enqueue.
public final class NodeRuntime: Sendable {
    /// What only the engine queue may touch; every access is checked (`QueueConfined`).
    struct EngineQueueState {
        let engine: MeshEngine
        var tickTimer: DispatchSourceTimer?
        /// When the one-shot relay wake-up is armed for (NodeRuntime+RelayWakeup.swift).
        var relayWakeup: Duration?
        /// The relay wake-up's timer thread, started on first use (NodeRuntime+RelayWakeup.swift).
        var relayTimer: WakeupTimer?
        /// True once the timer failed to start: dispatch timers do the job instead.
        var relayTimerFailed = false
        var watchers: [UInt64: @Sendable (WatchEvent) -> Void] = [:]
        var nextWatcher: UInt64 = 1
        var state = RuntimeState.starting
        var controlCounters: @Sendable () -> [String: UInt64] = { [:] }
        var transportCounters: @Sendable () -> [String: UInt64] = { [:] }
        var transportState: @Sendable () -> String? = { nil }
    }

    /// The serial queue that owns the engine.
    public var queue: DispatchQueue { confined.queue }
    /// The node's identity.
    public let nodeIdentity: NodeIdentity
    /// The transport's name for `status` (`udp`, `bluez`, `sim`).
    public let transportName: String
    let transport: any MeshTransport
    let logger: DaemonLogger
    let clock = ContinuousClock()
    let startedAt: ContinuousClock.Instant
    let confined: QueueConfined<EngineQueueState>
    /// The bounded, per-link fair way in for transport events (any thread → the engine queue).
    let inbox: EngineInbox
    /// Where the seen cache's new IDs go, and what a delivery waits for; nil runs without one.
    let journal: SeenJournal?

    /// Creates a runtime; nothing runs until `start`.
    /// With a `journal`, the engine must keep its newly seen IDs (`MeshEngine.keepNewlySeen()`).
    public init(
        identity: NodeIdentity, engine: MeshEngine, transport: any MeshTransport, transportName: String, logger: DaemonLogger,
        journal: SeenJournal? = nil
    ) {
        self.nodeIdentity = identity
        self.journal = journal
        self.confined = QueueConfined(EngineQueueState(engine: engine), queue: DispatchQueue(label: "meshnoded.engine"))
        self.inbox = EngineInbox(queue: confined.queue)
        self.transport = transport
        self.transportName = transportName
        self.logger = logger
        self.startedAt = clock.now
    }

    deinit {
        confined.valueInOwnersDeinit().relayTimer?.stop()
    }

    /// The engine; only on `queue`.
    var engine: MeshEngine { confined.value.engine }
    /// The tick timer; only on `queue`.
    var tickTimer: DispatchSourceTimer? {
        get { confined.value.tickTimer }
        _modify { yield &confined.value.tickTimer }
    }
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
    /// The transport's counters; only on `queue`.
    var transportCounters: @Sendable () -> [String: UInt64] {
        get { confined.value.transportCounters }
        _modify { yield &confined.value.transportCounters }
    }

    /// What the transport says of its own progress; only on `queue`.
    var transportState: @Sendable () -> String? {
        get { confined.value.transportState }
        _modify { yield &confined.value.transportState }
    }

    /// Engine time now: the monotonic time since the runtime was created.
    var now: Duration { clock.now - startedAt }

    /// Supplies extra counter groups for `stats` (the control server's, the transport's).
    public func addCounterSources(control: @escaping @Sendable () -> [String: UInt64], transport: @escaping @Sendable () -> [String: UInt64]) {
        queue.sync {
            controlCounters = control
            transportCounters = transport
        }
    }

    /// Supplies the transport's own state line for `status` (BlueZ: waiting for bluetoothd, ...).
    public func addTransportState(_ source: @escaping @Sendable () -> String?) {
        queue.sync { transportState = source }
    }

    /// Starts the transport and the engine's timers (ticked every `tickInterval`).
    public func start(tickInterval: Duration = .milliseconds(250)) throws {
        let hooks = TransportReaderHooks(
            willDeliver: { [weak self] in self?.inbox.readerBatchBegins() },
            didDeliver: { [weak self] moreWaiting in
                guard let self else { return }
                self.inbox.readerBatchEnded(socketBusy: moreWaiting, for: self)
            })
        try transport.start(handler: { [weak self] event in self?.enqueue(event) }, readerHooks: hooks)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let milliseconds = Int(tickInterval.components.seconds * 1000 + tickInterval.components.attoseconds / 1_000_000_000_000_000)
        timer.schedule(deadline: .now(), repeating: .milliseconds(max(10, milliseconds)))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.perform(self.engine.tick(now: self.now))
        }
        queue.sync {
            tickTimer = timer
            state = .running
        }
        timer.resume()
    }

    /// Stops timers and the transport (closing every link); pending actions are flushed first.
    public func stop() {
        queue.sync {
            state = .stopping
            tickTimer?.cancel()
            tickTimer = nil
            stopRelayTimer()
            perform(engine.tick(now: now))
        }
        transport.stop()
    }

    /// The engine's seen cache now, to keep across a restart (call after ``stop()``).
    public func seenCacheSnapshot() -> SeenCacheSnapshot {
        queue.sync { engine.seenCacheSnapshot(now: now) }
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
            broadcast(.link(up: info))
        case .linkDown(let link, let reason):
            let info = engine.linkInfo(link)
            logger.info(.linkDown, "link down: \(reason)", LogFields(link: link, address: info?.remoteAddress, reason: reason))
            broadcast(.link(down: link, reason: reason))
        case .mtuChanged, .rssiChanged, .frameReceived:
            break
        }
        perform(engine.handle(event, now: now))
    }

    /// Performs engine actions in order. The seen cache's new IDs go to the journal first; a
    /// delivery is reported to watchers once its ID is on the disk (``SeenJournal``).
    func perform(_ actions: [EngineAction]) {
        if let journal { journal.append(engine.takeNewlySeen()) }
        for action in actions {
            switch action {
            case .send(let frame, let link):
                let outcome = transport.send(frame, on: link)
                engine.recordSendFailure(outcome, on: link)
            case .disconnect(let link):
                transport.disconnect(link)
            case .event(let event):
                if case .linkKeyed(let link, _) = event { transport.linkKeyed(link) }
                if case .delivered = event, let journal, !watchers.isEmpty {
                    journal.whenDurable { [weak self] in
                        guard let self else { return }
                        self.queue.async { self.report(event) }
                    }
                } else {
                    report(event)
                }
            }
        }
        armRelayWakeup()
    }

    /// Sends a watch event to every watcher; with none, the event is never built.
    func broadcast(_ event: @autoclosure () -> WatchEvent) {
        guard !watchers.isEmpty else { return }
        let built = event()
        for sink in watchers.values { sink(built) }
    }

    /// Takes a transport event in (any thread); the inbox sees that it is drained.
    func enqueue(_ event: TransportEvent) {
        inbox.enqueue(event, for: self)
    }
}

extension NodeRuntime: EngineInboxConsumer {
    /// Sends the relays that fell due while the queue was busy, after every drain turn.
    func inboxDrained() {
        sendRelaysDueByNow()
    }
}
