import Doctor
import Glibc

/// Looks at the `[lan] interface` with `getifaddrs`: its flags, IPv4 and IPv6 link-local addresses.
enum DoctorInterfaceProbe {
    /// The fact for `name`; `.notConfigured` when empty.
    static func fact(name: String) -> InterfaceFact {
        guard !name.isEmpty else { return .notConfigured }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        guard let first = list else { return .missing(others: []) }
        defer { freeifaddrs(list) }
        var names: Set<String> = []
        var state: InterfaceState?
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let entryName = String(cString: entry.pointee.ifa_name)
            names.insert(entryName)
            guard entryName == name else { continue }
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            var current = state ?? InterfaceState(up: flags & Int32(IFF_UP) != 0, running: flags & Int32(IFF_RUNNING) != 0,
                                                  multicast: flags & Int32(IFF_MULTICAST) != 0, ipv4: [])
            if let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) {
                var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                    var raw = inet.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
                current.ipv4.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                if let mask = entry.pointee.ifa_netmask, mask.pointee.sa_family == sa_family_t(AF_INET) {
                    let (addressBits, maskBits) = (
                        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) },
                        mask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) })
                    current.networks.append(AddressPrefix(bytes: (0..<4).map { UInt8(truncatingIfNeeded: addressBits >> (24 - 8 * $0)) },
                                                          length: maskBits.nonzeroBitCount))
                }
            }
            if let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET6) {
                var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                let linkLocal = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet in
                    var raw = inet.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                    // fe80::/10: the first byte 0xfe, the next two bits 10.
                    return withUnsafeBytes(of: &raw) { $0[0] == 0xFE && $0[1] & 0xC0 == 0x80 }
                }
                if linkLocal { current.linkLocal.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
            }
            state = current
        }
        guard let state else { return .missing(others: names.sorted()) }
        return .present(state)
    }
}
