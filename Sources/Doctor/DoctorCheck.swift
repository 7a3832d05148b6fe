/// The checks `relayctl doctor` runs, in the order it prints them.
public enum DoctorCheck: String, Codable, Sendable, CaseIterable {
    /// bluetoothd owns `org.bluez` on the system bus; its version.
    case bluetoothd
    /// The configured adapter exists and is powered.
    case adapter
    /// The adapter has both LE roles, central and peripheral (`Roles`).
    case roles
    /// An LE advertising instance is free or already ours (`SupportedInstances`, `ActiveInstances`).
    case advertising
    /// The adapter uses resolvable private addresses (the kernel's privacy setting, or bluetoothd's main.conf).
    case privacy
    /// The D-Bus policy that lets the service user talk to BlueZ is installed.
    case dbusPolicy = "dbus-policy"
    /// The `[lan] interface` exists, is up with an IPv4 address, and takes multicast when `discovery` is on.
    case lanInterface = "lan-interface"
    /// The running unit's `IPAddressAllow=`/`IPAddressDeny=` let the interface's subnet and the discovery group in.
    case lanUnitRules = "lan-unit-rules"
    /// No nftables input chain drops the LAN ports (as root, best effort).
    case lanFirewall = "lan-firewall"
    /// The service user exists.
    case serviceUser = "service-user"
    /// The control group exists.
    case controlGroup = "control-group"
    /// The state directory's owner and mode.
    case stateDirectory = "state-directory"
    /// The identity file's owner and mode.
    case identity
    /// The system clock: synchronised, and a plausible year.
    case clock
    /// The mesh clock the daemon reports in its status, when it reports one.
    case meshClock = "mesh-clock"
    /// Free space where the state directory lives.
    case diskSpace = "disk-space"
    /// The systemd unit's state.
    case unit
    /// The daemon answers `status` on its control socket.
    case controlSocket = "control-socket"

    /// The checks that only apply to the BlueZ transport.
    public static let bluetooth: Set<DoctorCheck> = [.bluetoothd, .adapter, .roles, .advertising, .privacy, .dbusPolicy]
}
