import Dispatch
import MeshLink
import Synchronization

/// A `MeshTransport` over loopback UDP that carries exactly the frames a GATT link would.
///
/// It binds one port; for every configured neighbour it is the central of a link and retries
/// connecting every `connectInterval`; any node that connects to it gets a peripheral link.
/// Two nodes that list each other have two links, one per role, as BLE dual role does.
/// The datagram protocol is in docs/OPERATIONS.md. Socket I/O never blocks (a reader thread
/// waits in `poll` and reads on the queue); events are delivered one at a time, in order, on the
/// transport's own serial queue.
public final class UDPTransport: MeshTransport, Sendable {
    private struct State {
        var table: UDPLinkTable
        var handler: (@Sendable (TransportEvent) -> Void)?
        var reader: SocketReader?
        var timer: DispatchSourceTimer?
        var started = false
        var stopped = false
    }

    /// The configuration the transport runs with.
    public let configuration: UDPTransportConfiguration
    /// The address actually bound (the kernel's choice when the configuration said port 0).
    public let boundEndpoint: UDPEndpoint
    private let socket: UDPSocket
    private let state: Mutex<State>
    private let queue: DispatchQueue
    private let origin = ContinuousClock.now

    /// Binds the socket now, so `boundEndpoint` is known before `start`.
    ///
    /// `randomSeed` fixes link nonces and frame-loss draws for tests; nil (the daemon) draws them
    /// from the system's secure random source.
    public init(configuration: UDPTransportConfiguration, randomSeed: UInt64? = nil) throws(UDPTransportError) {
        self.configuration = configuration
        socket = try UDPSocket.bind(configuration.bind, device: configuration.device, sources: configuration.sources)
        do {
            boundEndpoint = try socket.localEndpoint()
        } catch {
            socket.close()
            throw error
        }
        let table = randomSeed.map { UDPLinkTable(configuration: configuration, seed: $0) } ?? UDPLinkTable(configuration: configuration)
        state = Mutex(State(table: table))
        queue = DispatchQueue(label: "meshnode.udp.\(boundEndpoint.port)")
    }

    deinit {
        state.withLock { state in
            if !state.started { socket.close() }
            state.reader?.stop()
            state.timer?.cancel()
        }
    }

    /// Starts reading, keepalives and connects; `handler` runs on the transport's queue.
    public func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {
        try state.withLock { state throws(UDPTransportError) in
            guard !state.started, !state.stopped else { throw .alreadyStarted }
            state.started = true
            state.handler = handler
            let reader = try SocketReader(
                fd: socket.fd, queue: queue, onReadable: { [weak self] in self?.drainSocket() },
                onExit: { [socket] in socket.close() })
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let interval = configuration.tickInterval
            timer.schedule(deadline: .now(), repeating: .nanoseconds(Int(interval / .nanoseconds(1))), leeway: .milliseconds(1))
            timer.setEventHandler { [weak self] in self?.tick() }
            state.reader = reader
            state.timer = timer
            timer.resume()
        }
    }

    /// Sends one frame: `.sent` (also when test loss dropped it), `.full` or `.gone`.
    ///
    /// A frame longer than the link MTU is a caller bug: the link is closed and `.gone` returned.
    public func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome {
        let plan = state.withLock { $0.stopped ? .gone : $0.table.planSend(frame, on: link, now: now()) }
        switch plan {
        case .gone:
            return .gone
        case .lost:
            return .sent
        case .tooLong(let mtu):
            close(link, reason: "frame of \(frame.count) bytes exceeds MTU \(mtu)")
            return .gone
        case .send(let datagram, let endpoint):
            let result = socket.send(datagram.encoded(), to: endpoint)
            state.withLock { state in
                switch result {
                case .sent:
                    state.table.counters.framesSent += 1
                    state.table.counters.datagramsSent += 1
                case .full: state.table.counters.sendFull += 1
                case .failed: state.table.counters.sendErrors += 1
                }
            }
            return result == .sent ? .sent : .full
        }
    }

    /// Closes a link; its `.linkDown` follows on the transport's queue.
    public func disconnect(_ link: LinkID) {
        close(link, reason: "disconnected locally")
    }

    /// Remembers that the engine keyed `link`: a full slot table displaces unkeyed links first.
    public func linkKeyed(_ link: LinkID) {
        queue.async { [self] in state.withLock { $0.table.markKeyed(link, now: now()) } }
    }

    /// Tells every peer its links are closed and stops; no new event starts after this returns.
    ///
    /// The socket stays open for `stopLinger` more, answering "gone" to the challenges the
    /// closes cause, so peers drop their links at once rather than at their link timeout.
    public func stop() {
        let lingering = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            state.handler = nil
            for (datagram, endpoint) in state.table.closeAll() { _ = socket.send(datagram.encoded(), to: endpoint) }
            state.timer?.cancel()
            state.timer = nil
            return state.reader != nil
        }
        guard lingering else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(Self.stopLingerMilliseconds)) { [self] in
            state.withLock { state in
                state.reader?.stop()
                state.reader = nil
            }
        }
    }

    /// How long a stopped transport still answers challenges, in milliseconds.
    static let stopLingerMilliseconds = 500

    /// The counters so far.
    public func counters() -> UDPTransportCounters { state.withLock { $0.table.counters } }

    /// The counters for `stats`; UDP has no progress to report beyond its links.
    public var status: TransportStatus { TransportStatus(counters: CounterDictionary.make(from: counters())) }

    /// The links up now, by ID.
    public func links() -> [LinkInfo] {
        state.withLock { state in state.table.links.values.sorted { $0.id < $1.id }.map { state.table.info($0) } }
    }

    private func now() -> Duration { ContinuousClock.now - origin }

    private func close(_ link: LinkID, reason: String) {
        queue.async { [self] in
            let actions = state.withLock { state in
                state.stopped ? [] : state.table.removeLink(link, reason: reason, notifyPeer: true, now: now())
            }
            perform(actions)
        }
    }

    private func tick() {
        perform(state.withLock { $0.stopped ? [] : $0.table.tick(now: now()) })
    }

    /// Reads up to `readBatch` datagrams, until the socket is empty.
    private func drainSocket() {
        for _ in 0..<Self.readBatch {
            switch socket.receive(capacity: UDPDatagram.maxLength + 1) {
            case .empty, .failed:
                return
            case .datagram(let bytes, let length, let source):
                let actions = state.withLock { state -> [UDPLinkTable.Action] in
                    if state.stopped, let source, let answer = state.table.answerAfterStop(bytes, from: source) {
                        return [.send(answer, to: source)]
                    }
                    guard !state.stopped else { return [] }
                    guard let source else {
                        state.table.counters.rejectedSource += 1
                        return []
                    }
                    guard length <= UDPDatagram.maxLength else {
                        state.table.counters.datagramsReceived += 1
                        state.table.counters.oversizedDatagrams += 1
                        return []
                    }
                    return state.table.receive(bytes, from: source, now: now())
                }
                perform(actions)
            }
        }
    }

    /// Datagrams read per wake-up of the reader thread at most, before it hands the queue on.
    static let readBatch = 64

    /// Sends datagrams and delivers events in order; runs on `queue`.
    private func perform(_ actions: [UDPLinkTable.Action]) {
        guard !actions.isEmpty else { return }
        var sent: UInt64 = 0
        var full: UInt64 = 0
        var failed: UInt64 = 0
        for action in actions {
            switch action {
            case .send(let datagram, let endpoint):
                switch socket.send(datagram.encoded(), to: endpoint) {
                case .sent: sent += 1
                case .full: full += 1
                case .failed: failed += 1
                }
            case .emit(let event):
                state.withLock { $0.handler }?(event)
            }
        }
        state.withLock { state in
            state.table.counters.datagramsSent += sent
            state.table.counters.sendFull += full
            state.table.counters.sendErrors += failed
        }
    }
}
