import DBusKit
import Foundation
import MeshLink
import Synchronization

/// State shared between the engine's threads and the D-Bus loop thread.
struct BlueZShared: Sendable {
    var links = LinkBook()
    var counters = BlueZCounters()
    var notifying = false
    var profile: [UInt8] = []
    var discoverable = false
}

/// A lock around ``BlueZShared``, shared by the transport and its session.
final class BlueZSharedBox: Sendable {
    private let state = Mutex(BlueZShared())

    /// Runs `body` with exclusive access.
    func withLock<R: Sendable>(_ body: (inout BlueZShared) -> R) -> R {
        state.withLock { body(&$0) }
    }
}

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
/// All D-Bus work happens on one loop thread; ``send(_:on:)`` never blocks. See docs/BLUEZ.md.
public final class BlueZTransport: MeshTransport {
    /// The validated configuration.
    public let configuration: BlueZConfiguration
    private let log: @Sendable (BlueZLogEvent) -> Void
    private let shared = BlueZSharedBox()
    private let session = Mutex<BlueZSession?>(nil)
    private let started = Atomic<Bool>(false)

    /// Creates a transport; nothing touches D-Bus until ``start(handler:)``.
    public init(configuration: BlueZConfiguration,
                log: @escaping @Sendable (BlueZLogEvent) -> Void) throws(BlueZConfigurationError) {
        self.configuration = try configuration.validated()
        self.log = log
    }

    /// Starts the loop thread, which connects to the system bus and keeps itself registered with BlueZ.
    public func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw BlueZTransportError.alreadyStarted
        }
        let made: BlueZSession
        do throws(DBusError) {
            made = try BlueZSession(configuration: configuration, shared: shared, log: log, handler: handler)
        } catch {
            throw BlueZTransportError.dbus(error)
        }
        session.withLock { $0 = made }
        made.begin()
    }

    /// Sends one frame; refuses frames longer than the link's MTU-3 instead of letting BlueZ cut them.
    /// A frame whose route is not known yet (peer's database unresolved) is accepted and waits for it.
    public func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome {
        let limit = configuration.sendQueueLimit
        let decision = shared.withLock { state -> SendDecision in
            let decision = state.links.decide(size: frame.count, on: link, queueLimit: limit, notifying: state.notifying)
            if case .refuse(_, let reason) = decision { state.counters.refuse(reason) }
            return decision
        }
        switch decision {
        case .refuse(let outcome, _):
            return outcome
        case .write, .notify, .hold:
            guard let current = session.withLock({ $0 }) else {
                shared.withLock { $0.links.finished(on: link) }
                return .gone
            }
            current.post { $0.transmit(frame, on: link, decision: decision) }
            return .sent
        }
    }

    /// Disconnects the device behind a link; the link goes down with reason "closed by node".
    public func disconnect(_ link: LinkID) {
        session.withLock { $0 }?.post { $0.closeLink(link, reason: "closed by node", disconnectDevice: true) }
    }

    /// Unregisters from BlueZ, disconnects every link and stops the loop thread (waits up to 3 s).
    public func stop() {
        guard let current = session.withLock({ value -> BlueZSession? in defer { value = nil }; return value }) else {
            return
        }
        current.shutDown(wait: 3)
    }

    /// A snapshot of the counters.
    public var counters: BlueZCounters { shared.withLock { $0.counters } }

    /// The links that are up now.
    public var links: [LinkInfo] { shared.withLock { $0.links.links.values.sorted { $0.id < $1.id }.map(\.info) } }

    /// Sets the profile characteristic's value and whether it may be read (`discoverable`).
    public func setProfile(_ value: [UInt8], discoverable: Bool) {
        let bounded = Array(value.prefix(GATTRequest.maxValueLength))
        shared.withLock {
            $0.profile = bounded
            $0.discoverable = discoverable
        }
    }
}
