/// What bluetoothd said about the configured adapter.
public enum AdapterFact: Equatable, Sendable {
    /// Not looked at, because bluetoothd could not be reached.
    case unknown
    /// bluetoothd has no adapter of that name; `others` are the adapters it has.
    case missing(others: [String])
    /// The adapter and the properties the checks need.
    case present(AdapterState)
}

/// An adapter's properties as bluetoothd reports them.
public struct AdapterState: Equatable, Sendable {
    /// `Address`.
    public var address: String
    /// `Powered`.
    public var powered: Bool
    /// `PowerState` (`on`, `off`, `off-blocked`, ...), when bluetoothd has it.
    public var powerState: String?
    /// `Roles` (`central`, `peripheral`, `central-peripheral`), when bluetoothd has it.
    public var roles: [String]?
    /// The advertising manager's instance counts; nil when the adapter has no `LEAdvertisingManager1`.
    public var advertising: AdvertisingInstances?

    /// Creates the state.
    public init(address: String, powered: Bool, powerState: String? = nil, roles: [String]? = nil,
                advertising: AdvertisingInstances? = nil) {
        self.address = address
        self.powered = powered
        self.powerState = powerState
        self.roles = roles
        self.advertising = advertising
    }
}

/// `org.bluez.LEAdvertisingManager1`'s counts.
public struct AdvertisingInstances: Equatable, Sendable {
    /// `SupportedInstances`: how many more advertisements the controller can take.
    public var supported: Int
    /// `ActiveInstances`: how many are registered now.
    public var active: Int

    /// Creates the counts.
    public init(supported: Int, active: Int) {
        self.supported = supported
        self.active = active
    }
}
