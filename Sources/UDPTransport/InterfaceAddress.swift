import Glibc
import MeshLink

/// A network interface's IPv4 address and subnet, as the kernel reports them (`getifaddrs`): what
/// the LAN transport binds and accepts datagrams from.
public struct InterfaceAddress: Equatable, Sendable {
    /// The interface name, such as `eth0`.
    public var name: String
    /// The interface's first IPv4 address, in host byte order.
    public var address: UInt32
    /// The subnet of that address and its netmask.
    public var subnet: IPv4Subnet

    /// Creates an interface address.
    public init(name: String, address: UInt32, subnet: IPv4Subnet) {
        self.name = name
        self.address = address
        self.subnet = subnet
    }

    /// The first IPv4 address of interface `name` now.
    public static func lookup(_ name: String) throws(InterfaceAddressError) -> InterfaceAddress {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { throw .system(errno: errno) }
        defer { freeifaddrs(first) }
        var seen = false
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let entryName = current.pointee.ifa_name, String(cString: entryName) == name else { continue }
            seen = true
            guard let address = current.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET,
                  let netmask = current.pointee.ifa_netmask else { continue }
            let host = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            let mask = netmask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            return InterfaceAddress(name: name, address: host, subnet: IPv4Subnet(address: host, netmask: mask))
        }
        throw seen ? .noIPv4(name) : .noSuchInterface(name)
    }
}

/// Why an interface's address could not be found.
public enum InterfaceAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No interface has this name.
    case noSuchInterface(String)
    /// The interface has no IPv4 address (it may be down, or waiting for DHCP).
    case noIPv4(String)
    /// `getifaddrs` failed with `errno`.
    case system(errno: Int32)

    /// One sentence.
    public var description: String {
        switch self {
        case .noSuchInterface(let name): "there is no interface \(name)"
        case .noIPv4(let name): "interface \(name) has no IPv4 address"
        case .system(let code): "getifaddrs: \(String(cString: strerror(code)))"
        }
    }
}
