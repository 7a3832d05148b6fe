/// What the kernel says about the `[lan] interface` (`getifaddrs`).
public enum InterfaceFact: Equatable, Sendable {
    /// No `[lan]` transport with an interface is configured: nothing to look at.
    case notConfigured
    /// The interfaces could not be listed; why.
    case unreadable(String)
    /// No interface of that name; `others` are the ones there are.
    case missing(others: [String])
    /// The interface and its state.
    case present(InterfaceState)
}

/// A network interface's flags, IPv4 and IPv6 link-local addresses.
public struct InterfaceState: Equatable, Sendable {
    /// `IFF_UP`: administratively up.
    public var up: Bool
    /// `IFF_RUNNING`: it has a carrier.
    public var running: Bool
    /// `IFF_MULTICAST`: it takes multicast.
    public var multicast: Bool
    /// Its IPv4 addresses, dotted.
    public var ipv4: [String]
    /// Its IPv4 addresses with their prefix lengths (`192.168.1.20/24`).
    public var networks: [AddressPrefix]
    /// Its IPv6 link-local addresses (fe80::/10), as text.
    public var linkLocal: [String]

    /// Creates the state.
    public init(up: Bool, running: Bool, multicast: Bool, ipv4: [String], networks: [AddressPrefix] = [], linkLocal: [String] = []) {
        self.up = up
        self.running = running
        self.multicast = multicast
        self.ipv4 = ipv4
        self.networks = networks
        self.linkLocal = linkLocal
    }

    /// Its IPv4 and link-local addresses, comma-separated.
    public var addresses: String { (ipv4 + linkLocal).joined(separator: ", ") }
}
