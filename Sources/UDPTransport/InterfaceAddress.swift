import Glibc
import MeshLink

/// A network interface's addresses as the kernel reports them (`getifaddrs`): its first IPv4
/// address and subnet, and its IPv6 link-local addresses (fe80::/10), what the LAN transport
/// accepts datagrams from and announces on.
public struct InterfaceAddress: Equatable, Sendable {
    /// The interface name, such as `eth0`.
    public var name: String
    /// The interface index (the scope of its link-local addresses); 0 when unknown.
    public var index: UInt32
    /// The interface's first IPv4 address, in host byte order; nil when it has none.
    public var address: UInt32?
    /// The subnet of that address and its netmask; ``IPv4Subnet/none`` without one.
    public var subnet: IPv4Subnet
    /// The interface's IPv6 link-local addresses, in the kernel's order.
    public var linkLocal: [IPv6Address]

    /// Creates an interface address with an IPv4 address (and, by default, no IPv6).
    public init(name: String, index: UInt32 = 0, address: UInt32, subnet: IPv4Subnet, linkLocal: [IPv6Address] = []) {
        self.name = name
        self.index = index
        self.address = address
        self.subnet = subnet
        self.linkLocal = linkLocal
    }

    /// Creates an interface address with IPv6 link-local addresses alone.
    public init(name: String, index: UInt32, linkLocal: [IPv6Address]) {
        self.name = name
        self.index = index
        self.address = nil
        self.subnet = .none
        self.linkLocal = linkLocal
    }

    /// `192.168.1.7, fe80::1` (what the interface has).
    public var summary: String {
        ((address.map { [UDPEndpoint.dotted($0)] } ?? []) + linkLocal.map(\.description)).joined(separator: ", ")
    }

    /// The addresses of interface `name` now; fails when it has neither an IPv4 address nor an
    /// IPv6 link-local one.
    public static func lookup(_ name: String) throws(InterfaceAddressError) -> InterfaceAddress {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { throw .system(errno: errno) }
        defer { freeifaddrs(first) }
        var seen = false
        var ipv4: (address: UInt32, subnet: IPv4Subnet)?
        var linkLocal: [IPv6Address] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let entryName = current.pointee.ifa_name, String(cString: entryName) == name else { continue }
            seen = true
            guard let address = current.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET where ipv4 == nil:
                guard let netmask = current.pointee.ifa_netmask else { continue }
                let host = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
                let mask = netmask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
                ipv4 = (host, IPv4Subnet(address: host, netmask: mask))
            case AF_INET6:
                let host = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { IPv6Address($0.pointee.sin6_addr) }
                if host.isLinkLocal, linkLocal.count < Self.maxLinkLocal { linkLocal.append(host) }
            default:
                continue
            }
        }
        guard seen else { throw .noSuchInterface(name) }
        let index = if_nametoindex(name)
        if let ipv4 {
            return InterfaceAddress(name: name, index: index, address: ipv4.address, subnet: ipv4.subnet, linkLocal: linkLocal)
        }
        guard !linkLocal.isEmpty, index != 0 else { throw .noAddress(name) }
        return InterfaceAddress(name: name, index: index, linkLocal: linkLocal)
    }

    /// The most link-local addresses kept of one interface (it has one, as a rule).
    public static let maxLinkLocal = 8
}

/// Why an interface's address could not be found.
public enum InterfaceAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No interface has this name.
    case noSuchInterface(String)
    /// The interface has neither an IPv4 address nor an IPv6 link-local one (it may be down, or
    /// have IPv6 off and wait for DHCP).
    case noAddress(String)
    /// `getifaddrs` failed with `errno`.
    case system(errno: Int32)

    /// One sentence.
    public var description: String {
        switch self {
        case .noSuchInterface(let name): "there is no interface \(name)"
        case .noAddress(let name): "interface \(name) has no IPv4 address nor IPv6 link-local address"
        case .system(let code): "getifaddrs: \(String(cString: strerror(code)))"
        }
    }
}
