import Dispatch
import Foundation
import MeshCrypto
import MeshNode
import MeshProtocol

/// Runs one engine against one transport: the daemon's heart, shared by every transport.
///
/// The engine is confined to `queue`: transport events, timer ticks and control requests
/// all run there, one at a time, and the actions each returns are performed in order
/// before the next event. Nothing on the queue blocks: transports queue frames, watchers
/// only enqueue.
public final class NodeRuntime: @unchecked Sendable {
    // @unchecked: every mutable field below is touched only on `queue` (see each use).
    /// The serial queue that owns the engine.
    public let queue = DispatchQueue(label: "meshnoded.engine")
    /// The node's identity.
    public let nodeIdentity: NodeIdentity
    /// The transport's name for `status` (`udp`, `bluez`, `sim`).
    public let transportName: String
    let engine: MeshEngine
    let transport: any MeshTransport
    let logger: DaemonLogger
    let clock = ContinuousClock()
    let startedAt: ContinuousClock.Instant
    let startedAtWall = Date()
    var tickTimer: DispatchSourceTimer?
    var watchers: [UInt64: @Sendable (WatchEvent) -> Void] = [:]
    var nextWatcher: UInt64 = 1
    var linkInfo: [LinkID: LinkInfo] = [:]
    var state = "starting"
    var controlCounters: @Sendable () -> [String: UInt64] = { [:] }
    var transportCounters: @Sendable () -> [String: UInt64] = { [:] }

    /// Creates a runtime; nothing runs until `start`.
    public init(identity: NodeIdentity, engine: MeshEngine, transport: any MeshTransport, transportName: String, logger: DaemonLogger) {
        self.nodeIdentity = identity
        self.engine = engine
        self.transport = transport
        self.transportName = transportName
        self.logger = logger
        self.startedAt = clock.now
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

    /// Starts the transport and the engine's timers (ticked every `tickInterval`).
    public func start(tickInterval: Duration = .milliseconds(250)) throws {
        try transport.start { [weak self] event in
            guard let self else { return }
            self.queue.async { self.handle(event) }
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let milliseconds = Int(tickInterval.components.seconds * 1000 + tickInterval.components.attoseconds / 1_000_000_000_000_000)
        timer.schedule(deadline: .now(), repeating: .milliseconds(max(10, milliseconds)))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.perform(self.engine.tick(now: self.now))
        }
        queue.sync {
            tickTimer = timer
            state = "running"
        }
        timer.resume()
    }

    /// Stops timers and the transport (closing every link); pending actions are flushed first.
    public func stop() {
        queue.sync {
            state = "stopping"
            tickTimer?.cancel()
            tickTimer = nil
            perform(engine.tick(now: now))
        }
        transport.stop()
    }

    /// Applies a reloaded hop-limit table.
    public func reload(_ configuration: EngineConfiguration) {
        queue.async { self.engine.reload(hopLimits: configuration.hopLimits) }
    }

    /// Handles one transport event on the engine queue.
    func handle(_ event: TransportEvent) {
        switch event {
        case .linkUp(let info):
            linkInfo[info.id] = info
            logger.info(.linkUp, "link up (\(info.role.rawValue), mtu \(info.mtu))",
                        LogFields(link: info.id, address: info.remoteAddress))
            broadcast(.link(up: info))
        case .linkDown(let link, let reason):
            let info = linkInfo.removeValue(forKey: link)
            logger.info(.linkDown, "link down: \(reason)", LogFields(link: link, address: info?.remoteAddress, reason: reason))
            broadcast(.link(down: link, reason: reason))
        case .mtuChanged(let link, let mtu):
            linkInfo[link]?.mtu = mtu
        case .rssiChanged(let link, let rssi):
            linkInfo[link]?.rssi = rssi
        case .frameReceived:
            break
        }
        perform(engine.handle(event, now: now))
    }

    /// Performs engine actions in order.
    func perform(_ actions: [EngineAction]) {
        for action in actions {
            switch action {
            case .send(let frame, let link):
                let outcome = transport.send(frame, on: link)
                engine.recordSendFailure(outcome, on: link)
            case .disconnect(let link):
                transport.disconnect(link)
            case .event(let event):
                report(event)
            }
        }
    }

    /// Sends a watch event to every watcher.
    func broadcast(_ event: WatchEvent) {
        for sink in watchers.values { sink(event) }
    }
}
