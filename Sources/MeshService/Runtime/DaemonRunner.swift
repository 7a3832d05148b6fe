import Dispatch
import Foundation
import Glibc
import MeshCrypto
import MeshNode

/// Starts and stops a whole node from a configuration: identity, engine, transport,
/// control socket, systemd notifications and signals.
public enum DaemonRunner {
    /// Exit code when the node cannot start after its configuration was accepted (identity,
    /// transport or control socket); the log says which. `Restart=on-failure` retries it.
    public static let startFailureExitCode: Int32 = 1

    /// Runs the daemon until SIGTERM or SIGINT; never returns.
    public static func run(config: DaemonConfig, invocation: DaemonInvocation) -> Never {
        let logger = DaemonLogger(level: config.node.logLevel)
        let identity: NodeIdentity
        do {
            identity = try IdentityStore(directory: config.node.stateDirectory).loadOrCreate()
        } catch {
            logger.error(.configRejected, "cannot load or create the node identity: \(error)")
            exit(startFailureExitCode)
        }
        logger.setNode(identity.nodeID)
        let runtime: NodeRuntime
        let server: ControlServer
        do {
            let (transport, counters) = try TransportFactory.make(config: config, identity: identity, logger: logger)
            let engine = MeshEngine(
                identity: identity, configuration: config.engineConfiguration, fragmenterLimits: config.fragmenterLimits,
                wallClockAtZero: UInt64(Date().timeIntervalSince1970 * 1000))
            runtime = NodeRuntime(
                identity: identity, engine: engine, transport: transport, transportName: config.transport.kind.rawValue,
                logger: logger)
            server = ControlServer(settings: ControlServerSettings(config.node), node: runtime, logger: logger)
            runtime.addCounterSources(control: { CounterDictionary.make(from: server.counters()) }, transport: counters)
            try server.start()
            try runtime.start()
        } catch {
            logger.error(.configRejected, "cannot start: \(error)")
            exit(startFailureExitCode)
        }
        let notifier = SystemdNotifier()
        logger.notice(.daemonStarted, "meshnoded \(DaemonVersion.current) started as \(identity.shortID) on \(config.transport.kind.rawValue)")
        _ = notifier.ready(status: "node \(identity.shortID) up on \(config.transport.kind.rawValue); waiting for neighbours")
        _ = notifier.startWatchdog(queue: runtime.queue)
        let statusTimer = DispatchSource.makeTimerSource(queue: .main)
        statusTimer.schedule(deadline: .now() + 5, repeating: 5)
        statusTimer.setEventHandler {
            let status = runtime.status()
            _ = notifier.status("node \(status.shortID): \(status.neighbourCount) neighbour(s), \(status.knownNodeCount) known further away")
        }
        statusTimer.resume()
        let signals = SignalWatcher(
            queue: .main,
            onStop: { signal in
                logger.notice(.daemonStopping, "stopping on signal \(signal)")
                _ = notifier.stopping(status: "stopping")
                server.stop()
                runtime.stop()
                // STOPPING=1 goes out unless systemd's socket is stuck; never wait long for it.
                _ = notifier.flush(timeout: .milliseconds(500))
                exit(0)
            },
            onReload: {
                _ = notifier.reloading()
                do {
                    let reloaded = try invocation.loadConfig()
                    logger.setLevel(reloaded.node.logLevel)
                    runtime.reload(reloaded.engineConfiguration)
                    logger.notice(.configReloaded, "reloaded log level and relay table")
                } catch {
                    logger.error(.configRejected, "reload refused, keeping the running configuration: \(error)")
                }
                _ = notifier.ready(status: "node \(identity.shortID) running (reloaded)")
            })
        signals.start()
        dispatchMain()
    }
}
