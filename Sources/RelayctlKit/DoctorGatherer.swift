import DBusKit
import Doctor
import MeshConfig

/// Gathers `relayctl doctor`'s facts on this machine, every outside call bounded in time.
enum DoctorGatherer {
    /// The set-up from meshnoded's configuration file (`--config`), or the package's defaults when
    /// no file is given and the default one does not exist.
    static func setup(configPath: String?, socketOverride: String?) throws(ConfigError) -> DoctorSetup {
        let config = try ConfigLoader.load(path: configPath ?? ConfigLoader.defaultPath,
                                                 mayBeMissing: configPath == nil, overrides: [])
        var setup = DoctorSetup(controlGroup: config.node.controlGroup, adapter: config.bluez.adapter,
                           stateDirectory: config.node.stateDirectory,
                           controlSocket: socketOverride ?? config.node.controlSocket,
                           transport: config.transport.name)
        setup.lanInterface = config.lan.interface
        setup.lanDiscovery = config.lan.discovery
        setup.lanPort = config.lan.port
        return setup
    }

    /// Asks the daemon first; when it says how it runs (transport, state directory, user), the set-up
    /// becomes that, so the checks judge what it actually uses. Then every other fact.
    static func gather(for configured: DoctorSetup) -> (DoctorSetup, DoctorFacts) {
        let daemon = DoctorDaemonProbe.fact(socket: configured.controlSocket)
        var setup = configured
        if case .answered(let status) = daemon, let runs = status.runs { setup = configured.adopting(runs) }
        return (setup, facts(for: setup, daemon: daemon))
    }

    /// Every fact, for `setup`, with the daemon's answer already taken.
    static func facts(for setup: DoctorSetup, daemon: DaemonFact) -> DoctorFacts {
        let bus = DoctorBus.connect()
        defer { if case .success(let bus) = bus { bus.close() } }
        let (bluetoothd, adapter) = DoctorBlueZProbe.facts(bus: bus, adapter: setup.adapter)
        return DoctorFacts(
            bluetoothd: bluetoothd, adapter: adapter,
            dbusPolicy: DoctorFileProbe.policy(user: setup.serviceUser),
            serviceUserExists: DoctorFileProbe.userExists(setup.serviceUser),
            controlGroupExists: DoctorFileProbe.groupExists(setup.controlGroup),
            stateDirectory: DoctorFileProbe.path(setup.stateDirectory),
            identity: DoctorFileProbe.path(setup.identityFile),
            clock: DoctorClockProbe.fact(),
            space: DoctorFileProbe.space(setup.stateDirectory),
            unit: DoctorSystemdProbe.fact(bus: bus, unit: setup.unit),
            daemon: daemon,
            privacy: DoctorPrivacyProbe.fact(adapter: adapter, name: setup.adapter),
            lanInterface: DoctorInterfaceProbe.fact(name: setup.usesLAN ? setup.lanInterface : ""),
            lanUnitRules: lanUnitRules(for: setup, bus: bus),
            lanFirewall: setup.usesLAN && !setup.lanInterface.isEmpty ? DoctorFirewallProbe.fact() : .notRead("no LAN interface"))
    }

    /// The unit's address rules, when they bind the running daemon (or, with none running, would).
    static func lanUnitRules(for setup: DoctorSetup, bus: Result<DoctorBus, DBusError>) -> UnitAddressFact {
        guard setup.usesLAN, !setup.lanInterface.isEmpty else { return .unknown("no LAN interface") }
        if let runs = setup.daemon, !runs.systemd { return .unknown("meshnoded was started by hand: the unit's rules do not bind it") }
        return DoctorSystemdProbe.addressRules(bus: bus, unit: setup.unit)
    }
}
