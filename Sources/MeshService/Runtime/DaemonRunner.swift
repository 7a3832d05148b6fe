import ControlProtocol
import Dispatch
import GATTBridge
import Glibc
import MeshConfig
import MeshCrypto
import MeshLink
import MeshNode
import MQTTBridge

/// Starts and stops a whole node from a configuration: identity, engine, transport,
/// control socket, systemd notifications and signals.
public enum DaemonRunner {
    /// Runs the daemon until SIGTERM or SIGINT; never returns. The caller must have blocked the
    /// watched signals before any thread started (`SignalWatcher.blockWatchedSignals()`).
    public static func run(config: DaemonSettings, invocation: DaemonInvocation) -> Never {
        let logger = DaemonLogger(level: config.node.logLevel)
        // Every state file is private whatever umask meshnoded was started with (the mailbox
        // database holds the plain text of messages waiting for a key); the control socket is
        // given its 0660 explicitly.
        umask(0o077)
        do throws(StateDirectoryLockError) {
            // Held until the process ends; the descriptor is never closed.
            _ = try StateDirectoryLock.acquire(in: config.node.stateDirectory)
        } catch {
            fail(.stateDirectory(error), logger: logger)
        }
        let identity: NodeIdentity
        do throws(IdentityStoreError) {
            identity = try IdentityStore(directory: config.node.stateDirectory).loadOrCreate()
        } catch {
            fail(.identity(error), logger: logger)
        }
        logger.setNode(identity.nodeID)
        let transport: TransportSet
        do throws(TransportSetError) {
            transport = try TransportFactory.make(config: config, identity: identity, logger: logger)
        } catch {
            switch error {
            case .startFailed(let kind, let reason): fail(.transport(kind: kind, reason: reason), logger: logger)
            }
        }
        let engine = MeshEngine(
            identity: identity, configuration: config.engineConfiguration, fragmenterLimits: config.fragmenterLimits,
            wallClockAtZero: Self.wallClockMilliseconds())
        let seenStore = SeenCacheStore(directory: config.node.stateDirectory, capacity: config.seen.capacity)
        let journal = restoreSeenCache(from: seenStore, config: config, into: engine, logger: logger)
        let mailbox = openMailbox(config: config, engine: engine, logger: logger)
        let runtime = NodeRuntime(
            identity: identity, engine: engine, transport: transport, transportName: transport.name,
            logger: logger, journal: journal, mailbox: mailbox)
        renameAdvertisements(on: transport, runtime: runtime, identity: identity, logger: logger)
        let server = ControlServer(configuration: ControlServerConfiguration(config.node), node: runtime, logger: logger)
        runtime.addControlCounters { CounterDictionary.make(from: server.counters()) }
        runtime.describe(.current(configFile: invocation.configFileRead, stateDirectory: config.node.stateDirectory,
                                  controlSocket: config.node.controlSocket))
        do throws(UnixSocketError) {
            try server.start()
        } catch {
            fail(.controlSocket(path: config.node.controlSocket, error), logger: logger)
        }
        do {
            try runtime.start()
        } catch {
            server.stop()
            fail(.runtime("\(error)"), logger: logger)
        }
        if config.mqtt.enabled { startBridge(config.mqtt, runtime: runtime, identity: identity, logger: logger, server: server) }
        let notifier = SystemdNotifier()
        logger.notice(.daemonStarted, "meshnoded \(DaemonVersion.current) started as \(identity.shortID) on \(transport.name)")
        // The BlueZ transport says how far it has come (waiting for bluetoothd, ...); UDP says nothing extra.
        let transportState: @Sendable () -> String = { transport.status.summary.map { $0 + "; " } ?? "" }
        _ = notifier.ready(status: "node \(identity.shortID) up on \(transport.name); \(transportState())waiting for neighbours")
        _ = notifier.startWatchdog(queue: runtime.queue)
        let housekeeping = DispatchQueue(label: "meshnoded.housekeeping")
        let statusTimer = DispatchSource.makeTimerSource(queue: housekeeping)
        statusTimer.schedule(deadline: .now() + 5, repeating: 5)
        statusTimer.setEventHandler {
            let status = runtime.status()
            let bridge = status.bridge.map { "; mqtt \($0.state) \($0.broker)" } ?? ""
            _ = notifier.status(
                "node \(status.shortID): \(transportState())\(status.neighbourCount) neighbour(s), \(status.knownNodeCount) known further away\(bridge)")
        }
        statusTimer.resume()
        // The main thread takes the signals from here on; every thread has them blocked since
        // main.swift, so one sent during start-up is pending and handled now (SignalWatcher).
        // Only the signal thread touches it: SignalWatcher runs onReload there, one at a time.
        var reloads = ReloadOutcome()
        // The two handlers are local constants, not closures written into the call: Swift 6.0.3's
        // optimizer (-O, the arm64 release build) crashes in CopyPropagation on the call's
        // non-escaping closures capturing values that the timer's handler also captured.
        let onStop: (Int32) -> Never = { signal in
            logger.notice(.daemonStopping, "stopping on signal \(signal)")
            _ = notifier.stopping(status: "stopping")
            statusTimer.cancel()
            server.stop()
            runtime.stop()
            journal?.close()
            do throws(SeenCacheStoreError) {
                try seenStore.save(runtime.seenCacheSnapshot())
            } catch {
                logger.warning(.general, "seen cache not kept for the next start: \(error)")
            }
            // STOPPING=1 goes out unless systemd's socket is stuck; never wait long for it.
            _ = notifier.flush(timeout: .milliseconds(500))
            exit(0)
        }
        let onReload: () -> Void = {
            _ = notifier.reloading()
            do {
                let reloaded = try invocation.loadConfig()
                logger.setLevel(reloaded.node.logLevel)
                runtime.reload(reloaded.engineConfiguration)
                reloads.loaded(reloaded, running: config)
                logger.notice(.configReloaded, reloads.logLine)
            } catch {
                reloads.refused("\(error)")
                logger.error(.configRejected, reloads.logLine)
            }
            runtime.recordReload(reloads)
            _ = notifier.ready(status: "node \(identity.shortID) running (reloaded)")
        }
        SignalWatcher.run(onStop: onStop, onReload: onReload)
    }

    /// Makes this node a gateway of the MQTT bridge; a setting that cannot work stops the daemon.
    static func startBridge(
        _ settings: MQTTSettings, runtime: NodeRuntime, identity: NodeIdentity, logger: DaemonLogger, server: ControlServer
    ) {
        var environment: [String: String] = [:]
        if let directory = getenv("CREDENTIALS_DIRECTORY") { environment["CREDENTIALS_DIRECTORY"] = String(cString: directory) }
        do throws(MQTTStartupError) {
            let configuration = try settings.bridgeConfiguration(nodeID: identity.nodeID, environment: environment)
            do throws(MosquittoError) {
                try runtime.startBridge(configuration)
            } catch {
                throw .client(error)
            }
            logger.notice(
                .mqttBridge, "bridging mesh \(configuration.layout.root) through \(configuration.host):\(configuration.port) (\(configuration.credentials))")
        } catch {
            server.stop()
            runtime.stop()
            fail(.runtime(error.description), logger: logger)
        }
    }

    /// Hands the BlueZ transport, when it advertises, the name of each epoch of mesh time (PROTOCOL.md D13).
    static func renameAdvertisements(on transport: TransportSet, runtime: NodeRuntime, identity: NodeIdentity,
                                     logger: DaemonLogger) {
        guard let bluez = transport.members.lazy.compactMap({ $0.ported.transport as? BlueZTransport }).first,
              bluez.configuration.gattServer else { return }
        do throws(CryptoError) {
            let names = try AdvertisedName(identity: identity)
            runtime.rotateAdvertisedName(names) { name in
                do throws(BlueZConfigurationError) {
                    try bluez.setLocalName(name)
                } catch {
                    logger.error(.transportError, "advertised name \(name) refused: \(error)")
                }
            }
        } catch {
            logger.error(.general, "advertised names unavailable, the advertisement keeps its name: \(error)")
        }
    }

    /// Milliseconds since the Unix epoch (CLOCK_REALTIME).
    static func wallClockMilliseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1000 + UInt64(time.tv_nsec) / 1_000_000
    }

    /// Logs the failure as one sentence (on stderr unless under the journal) and exits with its code.
    static func fail(_ failure: StartupFailure, logger: DaemonLogger) -> Never {
        logger.error(.configRejected, failure.description)
        exit(failure.exitCode.rawValue)
    }
}
