import DBusKit
import Dispatch
import Glibc
import MeshLink
import Synchronization

/// Why ``BlueZTransport/start(handler:)`` failed.
public enum BlueZTransportError: Error, Equatable, Sendable {
    /// `start` was called twice, or after `stop`.
    case alreadyStarted
    /// The D-Bus loop could not be created.
    case dbus(DBusError)
}

/// A ``MeshTransport`` over BlueZ's D-Bus API: dual-role BLE on one adapter.
///
/// It exports a GATT service and an advertisement (peripheral role), scans for and connects to
/// peers that advertise the same service (central role), and reports one link per LE connection.
/// All D-Bus work and every send decision happen on one loop thread, which also calls the event
/// handler; ``send(_:on:)`` only posts the frame there and never blocks. See docs/BLUEZ.md.
public final class BlueZTransport: MeshTransport {
    /// The loop thread and the session it owns, while the transport runs.
    private struct Running: Sendable {
        let loop: DBusEventLoop
        let session: DBusLoopBound<BlueZSession>
    }

    /// The validated configuration.
    public let configuration: BlueZConfiguration
    private let log: @Sendable (BlueZLogEvent) -> Void
    private let shared = BlueZSharedBox()
    private let running = Mutex<Running?>(nil)
    private let started = Atomic<Bool>(false)

    /// Creates a transport; nothing touches D-Bus until ``start(handler:)``.
    public init(configuration: BlueZConfiguration,
                log: @escaping @Sendable (BlueZLogEvent) -> Void) throws(BlueZConfigurationError) {
        self.configuration = try configuration.validated()
        self.log = log
    }

    /// Starts the loop thread, which connects to the system bus and keeps itself registered with BlueZ.
    ///
    /// `handler` runs on the loop thread, one event at a time, in order: it must only hand the event
    /// on (the daemon's enqueues it into its bounded inbox), never block or wait for the transport.
    public func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw BlueZTransportError.alreadyStarted
        }
        let current: Running
        do throws(DBusError) {
            let loop = try DBusEventLoop()
            let session = try BlueZSession(configuration: configuration, loop: loop, shared: shared, log: log,
                                           handler: handler)
            current = Running(loop: loop, session: DBusLoopBound(session, loop: loop))
        } catch {
            throw BlueZTransportError.dbus(error)
        }
        running.withLock { $0 = current }
        current.loop.start(name: "meshnode-bluez-\(configuration.adapter)")
        current.loop.post { current.session.value.connectBus() }
    }

    /// Hands one frame to the loop thread and returns `.sent`: accepted for the loop thread, not yet
    /// decided. There ``LinkBook`` writes it, notifies it, holds it until the link's route is known,
    /// or refuses it (a link that is gone by then, a frame longer than the link's limit, a full
    /// queue, no route); a refused frame is counted in ``BlueZCounters/refused`` and dropped, and a
    /// link that is gone has reported its `.linkDown`. `.gone` only when the transport is not running.
    public func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome {
        guard let current = running.withLock({ $0 }) else {
            shared.withLock { $0.counters.refuse(.noLink) }
            return .gone
        }
        current.loop.post { current.session.value.send(frame, on: link) }
        return .sent
    }

    /// Disconnects the device behind a link; the link goes down with reason "closed by node".
    public func disconnect(_ link: LinkID) {
        guard let current = running.withLock({ $0 }) else { return }
        current.loop.post {
            current.session.value.closeLink(link, reason: "closed by node", disconnectDevice: true)
        }
    }

    /// Unregisters from BlueZ, disconnects every link and stops the loop thread (waits up to 3 s,
    /// unless called on the loop thread itself).
    public func stop() {
        guard let current = running.withLock({ value -> Running? in defer { value = nil }; return value }) else {
            return
        }
        let finished = DispatchSemaphore(value: 0)
        current.loop.post { current.session.value.shutDown { finished.signal() } }
        guard !current.loop.isCurrent else { return }
        _ = finished.wait(timeout: .now() + 3)
    }

    /// A snapshot of the counters.
    public var counters: BlueZCounters { shared.withLock { $0.counters } }

    /// The links that are up now, as the loop thread last published them.
    public var links: [LinkInfo] { shared.withLock { $0.links } }

    /// How far the transport has come (waiting for bluetoothd, running, ...), as the loop thread last
    /// published it; ``BlueZTransportState/connectingToBus(retryAt:)`` before the first publication.
    public var state: BlueZTransportState { shared.withLock { $0.state } }

    /// The state as one line for an operator, with the countdown to the next retry as of now:
    /// "waiting for bluetoothd (retry in 4 s)".
    public var stateSummary: String { state.summary(at: BlueZClock.now()) }

    /// The counters and the state line, for the daemon's `stats` and `status`.
    public var status: TransportStatus { TransportStatus(counters: CounterDictionary.make(from: counters), summary: stateSummary) }

    /// Advertises `name` from now on: the advertisement is registered again with it at once (or, before
    /// ``start(handler:)``, first registered with it). Throws, changing nothing, unless the name is
    /// printable ASCII that fits the advertisement.
    public func setLocalName(_ name: String) throws(BlueZConfigurationError) {
        try configuration.checkLocalName(name)
        shared.withLock { $0.localName = name }
        guard let current = running.withLock({ $0 }) else { return }
        current.loop.post { current.session.value.localNameChanged() }
    }

    /// Sets the profile characteristic's value and whether it may be read (`discoverable`).
    public func setProfile(_ value: [UInt8], discoverable: Bool) {
        let bounded = Array(value.prefix(GATTRequest.maxValueLength))
        shared.withLock {
            $0.profile = bounded
            $0.discoverable = discoverable
        }
    }
}
