import MeshLink
import Synchronization

/// A transport a test drives by hand: it numbers its own links as the test says, records what it
/// is asked to send, close, key and stop, and reports what the test tells it to, as a real
/// transport would from its own thread. Put behind a `PortedTransport` or a `TransportSet`, two of
/// them make one node with two transports.
public final class HandTransport: MeshTransport {
    /// Thrown by ``start(handler:)`` when the transport was made to fail there.
    public struct StartFailure: Error, CustomStringConvertible {
        /// Why it failed.
        public let description: String
    }

    private struct State {
        var handler: (@Sendable (TransportEvent) -> Void)?
        var sent: [(link: LinkID, frame: [UInt8])] = []
        var disconnected: [LinkID] = []
        var keyed: [LinkID] = []
        var stopped = false
    }
    private let state = Mutex(State())
    private let startFailure: String?
    private let counters: [String: UInt64]
    private let summary: String?

    /// Creates a transport; `startFailure` makes ``start(handler:)`` throw with that reason, and
    /// `counters` and `summary` are what ``status`` says.
    public init(startFailure: String? = nil, counters: [String: UInt64] = [:], summary: String? = nil) {
        self.startFailure = startFailure
        self.counters = counters
        self.summary = summary
    }

    /// Keeps `handler` for ``report(_:)``, or throws ``StartFailure``.
    public func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {
        if let startFailure { throw StartFailure(description: startFailure) }
        state.withLock { $0.handler = handler }
    }

    /// Records the frame; always sent.
    public func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome {
        state.withLock { $0.sent.append((link, frame)) }
        return .sent
    }

    /// Records the link as closed.
    public func disconnect(_ link: LinkID) { state.withLock { $0.disconnected.append(link) } }

    /// Records the link as keyed.
    public func linkKeyed(_ link: LinkID) { state.withLock { $0.keyed.append(link) } }

    /// Records the stop.
    public func stop() { state.withLock { $0.stopped = true } }

    /// The counters and summary it was made with.
    public var status: TransportStatus { TransportStatus(counters: counters, summary: summary) }

    /// Reports `event` to the handler given to ``start(handler:)`` (none before it).
    public func report(_ event: TransportEvent) { state.withLock { $0.handler }?(event) }

    /// The frames asked for since the last call, oldest first.
    public func takeSent() -> [(link: LinkID, frame: [UInt8])] {
        state.withLock { state in
            defer { state.sent.removeAll() }
            return state.sent
        }
    }

    /// The links closed, oldest first.
    public var disconnected: [LinkID] { state.withLock { $0.disconnected } }

    /// The links reported keyed, oldest first.
    public var keyed: [LinkID] { state.withLock { $0.keyed } }

    /// True once stopped.
    public var stopped: Bool { state.withLock { $0.stopped } }
}

/// Events a transport reported, as the daemon's inbox would take them on the transport's thread.
public final class ReportedEvents: Sendable {
    private let events = Mutex<[TransportEvent]>([])

    /// Creates an empty inbox.
    public init() {}

    /// Takes one event (the transport's handler).
    public func append(_ event: TransportEvent) { events.withLock { $0.append(event) } }

    /// The events reported since the last call, oldest first.
    public func take() -> [TransportEvent] {
        events.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }
}
