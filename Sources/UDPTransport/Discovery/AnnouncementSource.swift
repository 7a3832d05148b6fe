import MeshLink

/// Where an announcement came from, or a group it goes to: an IPv4 address (host byte order), or
/// an IPv6 one with the index of the interface it arrived on (its scope).
public enum AnnouncementSource: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// An IPv4 address.
    case ipv4(UInt32)
    /// An IPv6 address and its interface index.
    case ipv6(IPv6Address, scope: UInt32)

    /// `192.168.1.7` or `fe80::1%2`.
    public var description: String {
        switch self {
        case .ipv4(let address): UDPEndpoint.dotted(address)
        case .ipv6(let address, let scope): "\(address)%\(scope)"
        }
    }
}
