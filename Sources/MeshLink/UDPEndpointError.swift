/// Why a UDP endpoint was refused.
public enum UDPEndpointError: Error, Equatable, Sendable {
    /// The text is not `host:port` or `[v6-host]:port`.
    case malformed(String)
    /// The host is not a numeric IPv4 or IPv6 address (or `localhost`).
    case notNumeric(String)
    /// The address is not loopback (127.0.0.0/8 or ::1); the UDP transport never leaves the machine.
    case notLoopback(String)
    /// The address is no IPv4 unicast address (0.0.0.0/8, multicast, broadcast) nor loopback.
    case notUnicast(String)
    /// The IPv6 address is neither link-local (fe80::/10) nor ::1; the LAN transport takes no other.
    case notLinkLocal(String)
    /// A `%scope` on an address that is not link-local, or naming no interface there is.
    case badScope(String)
    /// The port is not 1...65535.
    case badPort(String)
}
