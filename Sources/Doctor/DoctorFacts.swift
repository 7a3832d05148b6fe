/// Everything the gathering layer found on this machine: the checks' only input.
public struct DoctorFacts: Equatable, Sendable {
    /// bluetoothd on the system bus.
    public var bluetoothd: BluetoothdFact
    /// The configured adapter.
    public var adapter: AdapterFact
    /// Whether the adapter uses resolvable private addresses.
    public var privacy: PrivacyFact
    /// The `[lan] interface`.
    public var lanInterface: InterfaceFact
    /// The running unit's address rules.
    public var lanUnitRules: UnitAddressFact = .unknown("not asked")
    /// The host firewall's input chains.
    public var lanFirewall: FirewallFact = .notRead("not asked")
    /// The D-Bus policy file.
    public var dbusPolicy: DBusPolicyFact
    /// Whether the service user exists.
    public var serviceUserExists: Bool
    /// Whether the control group exists.
    public var controlGroupExists: Bool
    /// The state directory.
    public var stateDirectory: PathFact
    /// The identity file in it.
    public var identity: PathFact
    /// The system clock.
    public var clock: ClockFact
    /// Free space for the state directory.
    public var space: SpaceFact
    /// The systemd unit.
    public var unit: UnitFact
    /// The daemon on its control socket.
    public var daemon: DaemonFact

    /// Creates the facts.
    public init(bluetoothd: BluetoothdFact, adapter: AdapterFact, dbusPolicy: DBusPolicyFact, serviceUserExists: Bool,
                controlGroupExists: Bool, stateDirectory: PathFact, identity: PathFact, clock: ClockFact,
                space: SpaceFact, unit: UnitFact, daemon: DaemonFact, privacy: PrivacyFact = .unknown,
                lanInterface: InterfaceFact = .notConfigured, lanUnitRules: UnitAddressFact = .unknown("not asked"),
                lanFirewall: FirewallFact = .notRead("not asked")) {
        self.lanUnitRules = lanUnitRules
        self.lanFirewall = lanFirewall
        self.privacy = privacy
        self.lanInterface = lanInterface
        self.bluetoothd = bluetoothd
        self.adapter = adapter
        self.dbusPolicy = dbusPolicy
        self.serviceUserExists = serviceUserExists
        self.controlGroupExists = controlGroupExists
        self.stateDirectory = stateDirectory
        self.identity = identity
        self.clock = clock
        self.space = space
        self.unit = unit
        self.daemon = daemon
    }
}
