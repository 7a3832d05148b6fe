import Dispatch
import MeshLink
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
/// The timers are libdispatch timer sources on the same queue; the driver's own state is
/// confined to it and checked on every access (``QueueConfined``).
final class EngineDriver: Sendable {
    private struct Inbox {
        var events: FairInbox
        var drainQueued = false
    }

    private struct Timers {
        weak var consumer: (any EngineDriverConsumer)?
        var tick: (any DispatchSourceTimer)?
        var relay: (any DispatchSourceTimer)?
        /// The engine time the relay wake-up is armed for.
        var relayWakeup: Duration?
        /// The engine time the relay timer is set to fire at; it may be earlier than `relayWakeup`
        /// (it then fires and is set again) or stale (it then fires for nothing).
        var relayTimerSet: Duration?
        var stopped = false
    }

    /// The serial queue the engine runs on.
    var queue: DispatchQueue { timers.queue }
    private let inbox: Mutex<Inbox>
    private let timers: QueueConfined<Timers>
    private let now: @Sendable () -> Duration

    /// Events one drain turn handles at most before it yields the queue to ticks and requests.
    static let maxEventsPerTurn = 64

    /// Creates an idle driver for `queue`; `now` is engine time (the runtime's clock).
    init(queue: DispatchQueue, limits: FairInbox.Limits = FairInbox.Limits(), now: @escaping @Sendable () -> Duration) {
        inbox = Mutex(Inbox(events: FairInbox(limits: limits)))
        timers = QueueConfined(Timers(), queue: queue)
        self.now = now
    }

    deinit {
        let timers = timers.valueInOwnersDeinit()
        timers.tick?.cancel()
        timers.relay?.cancel()
    }

    /// The inbox's counters and the frames waiting now; any thread.
    var inboxCounters: (FairInbox.Counters, waitingFrames: Int) {
        inbox.withLock { ($0.events.counters, $0.events.waitingFrames) }
    }

    /// The engine time the relay wake-up is armed for, nil when none is; only on `queue`.
    var armedRelayWakeup: Duration? { timers.value.relayWakeup }

    /// Starts the tick (every `tickInterval`, at least 10 ms) for `consumer`, kept weakly; any thread
    /// but the queue. Events enqueued before are drained now.
    func start(consumer: some EngineDriverConsumer, tickInterval: Duration) {
        let tick = DispatchSource.makeTimerSource(queue: queue)
        tick.schedule(deadline: .now(), repeating: .milliseconds(max(10, Int(tickInterval / .milliseconds(1)))))
        tick.setEventHandler { [weak self] in self?.currentConsumer()?.tick() }
        let relay = DispatchSource.makeTimerSource(queue: queue)
        relay.setEventHandler { [weak self] in self?.relayWakeupFired() }
        queue.sync {
            timers.value.consumer = consumer
            timers.value.tick = tick
            timers.value.relay = relay
        }
        tick.resume()
        relay.resume()
        queue.async { self.drain() }
    }

    /// Cancels the tick and the relay wake-up; events still drain. Only on `queue`.
    func stopTimers() {
        timers.value.stopped = true
        timers.value.tick?.cancel()
        timers.value.relay?.cancel()
        timers.value.relayWakeup = nil
    }

    /// Takes a transport event in from any thread and queues a drain unless one is queued already.
    /// A frame beyond its link's share or the total is shed and counted (``FairInbox``).
    func enqueue(_ event: TransportEvent) {
        let startDrain = inbox.withLock { inbox -> Bool in
            inbox.events.push(event)
            guard !inbox.drainQueued, !inbox.events.isEmpty else { return false }
            inbox.drainQueued = true
            return true
        }
        if startDrain { queue.async { self.drain() } }
    }

    /// Moves the relay wake-up after an engine turn to the earliest held relay plus the slack
    /// (``RelayWakeupPlan``), or clears it; only on `queue`. `nextRelayDue` is the engine's.
    func turnEnded(nextRelayDue: Duration?) {
        switch RelayWakeupPlan.decide(nextDue: nextRelayDue, armed: timers.value.relayWakeup) {
        case .keep:
            return
        case .disarm:
            // The timer is left set: it fires once for nothing, which is cheaper than setting it
            // again, since every change of a libdispatch timer wakes libdispatch's timer thread.
            timers.value.relayWakeup = nil
        case .arm(let deadline):
            guard !timers.value.stopped else { return }
            timers.value.relayWakeup = deadline
            // Set for this deadline or an earlier one already: it fires then and is set again.
            if let set = timers.value.relayTimerSet, set <= deadline { return }
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
        for _ in 0..<Self.maxEventsPerTurn {
            guard let event = inbox.withLock({ $0.events.next() }) else { break }
            consumer.handle(event)
        }
        consumer.sendDueRelays()
        let more = inbox.withLock { inbox -> Bool in
            inbox.drainQueued = !inbox.events.isEmpty
            return inbox.drainQueued
        }
        if more { queue.async { self.drain() } }
    }

    /// The relay timer fired: sends what is due, or re-arms when the deadline moved later.
    private func relayWakeupFired() {
        timers.value.relayTimerSet = nil
        guard let armed = timers.value.relayWakeup else { return }
        guard armed <= now() else {
            armRelayTimer(for: armed)
            return
        }
        timers.value.relayWakeup = nil
        currentConsumer()?.sendDueRelays()
    }

    private func armRelayTimer(for deadline: Duration) {
        timers.value.relayTimerSet = deadline
        let wait = max(.zero, deadline - now())
        let nanoseconds = Int(wait / .nanoseconds(1))
        timers.value.relay?.schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: .microseconds(500))
    }

    private func currentConsumer() -> (any EngineDriverConsumer)? {
        timers.value.consumer
    }
}
