import Dispatch
import MeshLink
import MeshProtocol
import Synchronization

/// What an ``EngineDriver`` drives: the runtime, which owns the engine (tests: stand-ins).
/// Every call comes on the driver's queue, one at a time.
protocol EngineDriverConsumer: AnyObject, Sendable {
    /// Handles one transport event.
    func handle(_ event: TransportEvent)
    /// The periodic tick (link timeouts, heartbeats, pacing).
    func tick()
    /// Sends the relays that are due by now, if any.
    func sendDueRelays()
    /// Handles one envelope the MQTT bridge admitted.
    func handleBridged(_ envelope: Envelope)
}

/// The one owner of the way into the engine: every hop from another thread to the engine's queue
/// goes through here, as every hop onto a swift-nio `SelectableEventLoop` goes through the loop.
///
/// It owns the bounded, per-link fair inbox (``FairInbox`` behind one lock), the serial queue the
/// engine runs on, the drain that takes events from the inbox onto that queue, the tick, and the
/// one-shot relay wake-up (``RelayWakeupPlan``). Transports call `enqueue` from their own thread
/// (UDP: its socket reader; BlueZ: the D-Bus loop); the first event into an idle inbox queues one
/// drain (`queue.async`), which handles at most `maxEventsPerTurn` events, links in turn, so that
/// ticks and control requests get the queue between turns and a flooding link delays only itself.
/// The tick is a libdispatch timer source on the queue; the relay wake-up is a ``WakeupTimer`` (a
/// timerfd and a thread of its own), which costs one thread wake-up where a libdispatch timer costs
/// three (docs/PERFORMANCE.md, "Frame path": at 40 and 400 messages a second it earned its code).
/// The driver's own state is confined to the queue and checked on every access (``QueueConfined``).
final class EngineDriver: Sendable {
    private struct Inbox {
        var events: FairInbox
        /// Envelopes from the MQTT bridge, oldest first, at most ``EngineDriver/maxBridged``.
        var bridged: [Envelope] = []
        var drainQueued = false

        var isEmpty: Bool { events.isEmpty && bridged.isEmpty }
    }

    private struct Timers {
        weak var consumer: (any EngineDriverConsumer)?
        var tick: (any DispatchSourceTimer)?
        var relay: WakeupTimer?
        /// The engine time the relay wake-up is armed for.
        var relayWakeup: Duration?
        var stopped = false
    }

    /// The serial queue the engine runs on.
    var queue: DispatchQueue { timers.queue }
    private let inbox: Mutex<Inbox>
    private let timers: QueueConfined<Timers>
    private let now: @Sendable () -> Duration

    /// Events one drain turn handles at most before it yields the queue to ticks and requests.
    static let maxEventsPerTurn = 64
    /// Envelopes from the MQTT bridge that may wait for the engine; more are refused.
    static let maxBridged = 256

    /// Creates an idle driver for `queue`; `now` is engine time (the runtime's clock).
    init(queue: DispatchQueue, limits: FairInbox.Limits = FairInbox.Limits(), now: @escaping @Sendable () -> Duration) {
        inbox = Mutex(Inbox(events: FairInbox(limits: limits)))
        timers = QueueConfined(Timers(), queue: queue)
        self.now = now
    }

    deinit {
        let timers = timers.valueInOwnersDeinit()
        timers.tick?.cancel()
        timers.relay?.stop()
    }

    /// The inbox's counters and the frames waiting now; any thread.
    var inboxCounters: (FairInbox.Counters, waitingFrames: Int) {
        inbox.withLock { ($0.events.counters, $0.events.waitingFrames) }
    }

    /// The engine time the relay wake-up is armed for, nil when none is; only on `queue`.
    var armedRelayWakeup: Duration? { timers.value.relayWakeup }

    /// Starts the tick (every `tickInterval`, at least 10 ms) and the relay wake-up's timer thread
    /// for `consumer`, kept weakly; any thread but the queue. Events enqueued before are drained now.
    func start(consumer: some EngineDriverConsumer, tickInterval: Duration) throws(WakeupTimerError) {
        let relay = try WakeupTimer(queue: queue) { [weak self] in self?.relayWakeupFired() }
        let tick = DispatchSource.makeTimerSource(queue: queue)
        tick.schedule(deadline: .now(), repeating: .milliseconds(max(10, Int(tickInterval / .milliseconds(1)))))
        tick.setEventHandler { [weak self] in self?.currentConsumer()?.tick() }
        queue.sync {
            timers.value.consumer = consumer
            timers.value.tick = tick
            timers.value.relay = relay
        }
        tick.resume()
        queue.async { self.drain() }
    }

    /// Cancels the tick and the relay wake-up; events still drain. Only on `queue`.
    func stopTimers() {
        timers.value.stopped = true
        timers.value.tick?.cancel()
        timers.value.relay?.stop()
        timers.value.relayWakeup = nil
    }

    /// Takes a transport event in from any thread and queues a drain unless one is queued already.
    /// A frame beyond its link's share or the total is shed and counted (``FairInbox``).
    func enqueue(_ event: TransportEvent) {
        let startDrain = inbox.withLock { inbox -> Bool in
            inbox.events.push(event)
            guard !inbox.drainQueued, !inbox.isEmpty else { return false }
            inbox.drainQueued = true
            return true
        }
        if startDrain { queue.async { self.drain() } }
    }

    /// Takes an envelope the MQTT bridge admitted in from its thread; false (and nothing queued)
    /// when ``maxBridged`` already wait. A drain turn takes bridge envelopes and link events in turn.
    func enqueueBridged(_ envelope: Envelope) -> Bool {
        let (accepted, startDrain) = inbox.withLock { inbox -> (Bool, Bool) in
            guard inbox.bridged.count < Self.maxBridged else { return (false, false) }
            inbox.bridged.append(envelope)
            guard !inbox.drainQueued else { return (true, false) }
            inbox.drainQueued = true
            return (true, true)
        }
        if startDrain { queue.async { self.drain() } }
        return accepted
    }

    /// Moves the relay wake-up after an engine turn to the earliest held relay plus the slack
    /// (``RelayWakeupPlan``), or clears it; only on `queue`. `nextRelayDue` is the engine's.
    func turnEnded(nextRelayDue: Duration?) {
        switch RelayWakeupPlan.decide(nextDue: nextRelayDue, armed: timers.value.relayWakeup) {
        case .keep:
            return
        case .disarm:
            timers.value.relayWakeup = nil
            timers.value.relay?.disarm()
        case .arm(let deadline):
            guard !timers.value.stopped else { return }
            timers.value.relayWakeup = deadline
            armRelayTimer(for: deadline)
        }
    }

    /// Handles up to `maxEventsPerTurn` events, links in turn, sends the relays due by then, and
    /// queues another turn for the rest; on `queue`.
    private func drain() {
        guard let consumer = currentConsumer() else {
            inbox.withLock { $0.drainQueued = false }
            return
        }
        for index in 0..<Self.maxEventsPerTurn {
            // Every other slot goes to the bridge first, so neither side waits for the other.
            let taken = inbox.withLock { inbox -> Either? in
                if index % 2 == 1, !inbox.bridged.isEmpty { return .bridged(inbox.bridged.removeFirst()) }
                if let event = inbox.events.next() { return .event(event) }
                return inbox.bridged.isEmpty ? nil : .bridged(inbox.bridged.removeFirst())
            }
            guard let taken else { break }
            switch taken {
            case .event(let event): consumer.handle(event)
            case .bridged(let envelope): consumer.handleBridged(envelope)
            }
        }
        consumer.sendDueRelays()
        let more = inbox.withLock { inbox -> Bool in
            inbox.drainQueued = !inbox.isEmpty
            return inbox.drainQueued
        }
        if more { queue.async { self.drain() } }
    }

    private enum Either {
        case event(TransportEvent)
        case bridged(Envelope)
    }

    /// The relay timer fired: sends what is due, or re-arms when the deadline moved later.
    private func relayWakeupFired() {
        guard let armed = timers.value.relayWakeup else { return }
        guard armed <= now() else {
            armRelayTimer(for: armed)
            return
        }
        timers.value.relayWakeup = nil
        currentConsumer()?.sendDueRelays()
    }

    private func armRelayTimer(for deadline: Duration) {
        timers.value.relay?.arm(after: max(.zero, deadline - now()))
    }

    private func currentConsumer() -> (any EngineDriverConsumer)? {
        timers.value.consumer
    }
}
