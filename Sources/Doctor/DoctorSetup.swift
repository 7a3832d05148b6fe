/// What the node is configured to be (from meshnoded's configuration) and the doctor's thresholds.
public struct DoctorSetup: Equatable, Sendable {
    /// The user meshnoded.service runs as (`User=` in the unit, the package's sysusers entry).
    public var serviceUser: String
    /// The group allowed on the control socket (`[node] control_group`).
    public var controlGroup: String
    /// The adapter (`[bluez] adapter`).
    public var adapter: String
    /// The state directory (`[node] state_directory`).
    public var stateDirectory: String
    /// The control socket.
    public var controlSocket: String
    /// The unit's name.
    public var unit: String
    /// The transports, `bluez`, `udp`, `lan` or several comma-separated (`[transport] kind`, or what
    /// the running daemon says); the Bluetooth checks apply when one is neither `udp` nor `lan`.
    public var transport: String
    /// `[lan] interface`; empty when the LAN transport runs on loopback.
    public var lanInterface = ""
    /// `[lan] discovery`: find peers by link-local multicast (ff02::114, else 224.0.0.254; port 7100).
    public var lanDiscovery = true
    /// `[lan] port`.
    public var lanPort: UInt16 = 7101
    /// How the running daemon runs, when it answered and said; the checks judge it instead of
    /// the package's defaults (``DoctorSetup/adopting(_:)``).
    public var daemon: DaemonRuns?
    /// A clock showing an earlier year is wrong (a Pi without RTC boots at 1970 or its last shutdown).
    public var earliestPlausibleYear: Int
    /// Free space below this fails.
    public var failBelowBytes: UInt64
    /// Free space below this warns.
    public var warnBelowBytes: UInt64

    /// Creates a set-up; the defaults are the package's.
    public init(serviceUser: String = "meshnode", controlGroup: String = "meshnode", adapter: String = "hci0",
                stateDirectory: String = "/var/lib/meshnoded", controlSocket: String = "/run/meshnoded/control.sock",
                unit: String = "meshnoded.service", transport: String = "bluez", earliestPlausibleYear: Int = 2026,
                failBelowBytes: UInt64 = 1 << 20, warnBelowBytes: UInt64 = 64 << 20) {
        self.serviceUser = serviceUser
        self.controlGroup = controlGroup
        self.adapter = adapter
        self.stateDirectory = stateDirectory
        self.controlSocket = controlSocket
        self.unit = unit
        self.transport = transport
        self.earliestPlausibleYear = earliestPlausibleYear
        self.failBelowBytes = failBelowBytes
        self.warnBelowBytes = warnBelowBytes
    }

    /// This set-up as the running daemon says it runs: its transport, state directory and user.
    public func adopting(_ runs: DaemonRuns) -> DoctorSetup {
        var setup = self
        setup.daemon = runs
        setup.transport = runs.transport
        setup.stateDirectory = runs.stateDirectory
        setup.serviceUser = runs.user
        return setup
    }

    /// True when one of the node's transports is Bluetooth (neither `udp` nor `lan`), so the Bluetooth checks apply.
    public var usesBluetooth: Bool { transport.split(separator: ",").contains { $0 != "udp" && $0 != "lan" } }

    /// True when one of the node's transports is `lan`.
    public var usesLAN: Bool { transport.split(separator: ",").contains("lan") }

    /// The identity file's path.
    public var identityFile: String { stateDirectory + "/identity.key" }
}
