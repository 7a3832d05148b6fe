import Dispatch
import MeshLink
import Synchronization

/// What an `EngineInbox` hands its events to, on the engine queue (the runtime; tests' fakes).
protocol EngineInboxConsumer: AnyObject, Sendable {
    /// Handles one event; only on the engine queue.
    func handle(_ event: TransportEvent)
    /// Runs on the engine queue after every drain turn.
    func inboxDrained()
}

/// The way from transports into the engine queue: a `FairInbox` behind a lock, and who drains it.
///
/// Events come in on any thread (`enqueue`); a drain takes them, links in turn, on the engine
/// queue. Usually a worker does (`queue.async`). Around a batch from a transport's reader thread
/// (`TransportReaderHooks`) the inbox wakes no worker; at the batch's end `InlineDrain` decides
/// whether the reader runs a bounded drain itself (`queue.sync`, which runs the block on the
/// calling thread when the queue is idle), hands off to a worker, or leaves it to a drain already
/// queued. Either way the FairInbox picks the events, so a flooding link delays only itself.
final class EngineInbox: Sendable {
    private struct State {
        var events: FairInbox
        var drainQueued = false
        var readerBatchOpen = false
    }

    /// The engine queue the drains run on.
    let queue: DispatchQueue
    private let state: Mutex<State>

    /// Events one worker turn handles at most before it yields the queue to ticks and requests.
    static let maxEventsPerTurn = 64

    /// Creates an empty inbox draining on `queue`.
    init(queue: DispatchQueue, limits: FairInbox.Limits = FairInbox.Limits()) {
        self.queue = queue
        state = Mutex(State(events: FairInbox(limits: limits)))
    }

    /// The inbox's counters and the frames waiting now.
    var counters: (FairInbox.Counters, waitingFrames: Int) {
        state.withLock { ($0.events.counters, $0.events.waitingFrames) }
    }

    /// Takes an event in (any thread) and makes sure a drain is queued, unless a reader thread is
    /// delivering a batch: it decides at the batch's end.
    func enqueue(_ event: TransportEvent, for consumer: some EngineInboxConsumer) {
        let startDrain = state.withLock { state -> Bool in
            state.events.push(event)
            guard !state.drainQueued, !state.readerBatchOpen, !state.events.isEmpty else { return false }
            state.drainQueued = true
            return true
        }
        if startDrain { queue.async { self.drain(for: consumer) } }
    }

    /// A transport's reader thread starts delivering a batch.
    func readerBatchBegins() {
        state.withLock { $0.readerBatchOpen = true }
    }

    /// The reader thread delivered its batch: per `InlineDrain`, it drains a bounded turn itself,
    /// wakes a worker, or does nothing. Only from a transport's reader thread, outside the
    /// transport's queue; never from the engine queue (`queue.sync` there would deadlock).
    func readerBatchEnded(socketBusy: Bool, for consumer: some EngineInboxConsumer) {
        let decision = state.withLock { state -> InlineDrain in
            state.readerBatchOpen = false
            let decision = InlineDrain.decide(
                waitingEvents: state.events.waitingEvents, drainQueued: state.drainQueued, socketBusy: socketBusy)
            if decision != .nothing { state.drainQueued = true }
            return decision
        }
        switch decision {
        case .nothing:
            return
        case .handOff:
            queue.async { self.drain(for: consumer) }
        case .inline(let maxEvents):
            dispatchPrecondition(condition: .notOnQueue(queue))
            queue.sync { drain(maxEvents: maxEvents, for: consumer) }
        }
    }

    /// Handles up to `maxEvents` waiting events, links in turn, then lets the consumer finish the
    /// turn and queues another turn for the rest (so ticks and requests get the queue between).
    func drain(maxEvents: Int = maxEventsPerTurn, for consumer: some EngineInboxConsumer) {
        for _ in 0..<maxEvents {
            guard let event = state.withLock({ $0.events.next() }) else { break }
            consumer.handle(event)
        }
        consumer.inboxDrained()
        let more = state.withLock { state -> Bool in
            state.drainQueued = !state.events.isEmpty
            return state.drainQueued
        }
        if more { queue.async { self.drain(for: consumer) } }
    }
}
