import Glibc
import MeshLink

/// A non-blocking UDP socket bound to a loopback endpoint, or on the LAN to an interface.
struct UDPSocket: Sendable {
    /// What one `receive` call found.
    enum Received {
        /// A datagram; `length` is its real length, which may exceed the bytes kept.
        case datagram([UInt8], length: Int, source: UDPEndpoint?)
        /// Nothing more to read now.
        case empty
        /// The read failed with `errno`.
        case failed(Int32)
    }

    /// What one `send` call did.
    enum Sent: Equatable {
        /// The kernel took the datagram.
        case sent
        /// The socket buffer is full.
        case full
        /// Another error, with `errno`.
        case failed(Int32)
    }

    /// The socket's file descriptor.
    let fd: Int32
    /// Whether the socket is IPv6 with IPv4 mapped in (the LAN's link socket): IPv4 peers are
    /// sent to as `::ffff:a.b.c.d`.
    let dualStack: Bool
    /// The receive buffer asked of the kernel (4 MiB; it may give less).
    static let receiveBufferBytes = 4 << 20

    /// Opens a socket and binds it. With a `device` (the LAN) it binds the wildcard address on
    /// `endpoint`'s port and that interface (`SO_BINDTODEVICE`: only datagrams that arrive on it
    /// reach the socket), IPv6 with IPv4 mapped in, so IPv4 and link-local peers share it and an
    /// address the interface gains or loses later needs no new socket; where the kernel has no
    /// IPv6, an IPv4 socket on the wildcard address. Without one, exactly `endpoint` (loopback).
    static func bind(_ endpoint: UDPEndpoint, device: String? = nil) throws(UDPTransportError) -> UDPSocket {
        let flags = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        var dualStack = false
        var fd: Int32
        if device != nil {
            fd = socket(AF_INET6, flags, 0)
            if fd >= 0 {
                var zero: Int32 = 0
                dualStack = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &zero, socklen_t(MemoryLayout<Int32>.size)) == 0
                if !dualStack {
                    Glibc.close(fd)
                    fd = -1
                }
            }
            if fd < 0 { fd = socket(AF_INET, flags, 0) }
        } else {
            fd = socket(endpoint.family == .ipv4 ? AF_INET : AF_INET6, flags, 0)
        }
        guard fd >= 0 else { throw .system(call: "socket", errno: errno) }
        if let device {
            let name = Array(device.utf8)
            let bound = name.withUnsafeBytes { setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, $0.baseAddress, socklen_t($0.count)) }
            guard bound == 0 else {
                let code = errno
                Glibc.close(fd)
                throw .system(call: "SO_BINDTODEVICE \(device)", errno: code)
            }
        }
        let result: Int32
        if device != nil {
            result = withWildcardAddress(port: endpoint.port, ipv6: dualStack) { Glibc.bind(fd, $0, $1) }
        } else {
            result = withSocketAddress(endpoint, mapped: false) { Glibc.bind(fd, $0, $1) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system(call: "bind \(device == nil ? endpoint.description : "port \(endpoint.port) on \(device ?? "")")", errno: code)
        }
        // All links share this socket: a deep receive buffer lets a quiet neighbour's datagrams
        // ride out a moment when a flooding one fills it faster than the node reads. The kernel
        // caps the size at net.core.rmem_max; a smaller buffer still works, so a refusal is no error.
        var receiveBuffer = Int32(Self.receiveBufferBytes)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size))
        if device != nil {
            // Bound to the wildcard address, the socket would also read datagrams sent to this port
            // at a group discovery's sockets joined; it joins none, and takes no other's.
            var zero: Int32 = 0
            _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_ALL, &zero, socklen_t(MemoryLayout<Int32>.size))
            if dualStack { _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_ALL, &zero, socklen_t(MemoryLayout<Int32>.size)) }
        }
        return UDPSocket(fd: fd, dualStack: dualStack)
    }

    /// The port the socket is bound to (the kernel's choice when it was bound to port 0).
    func localPort() throws(UDPTransportError) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw .system(call: "getsockname", errno: errno) }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// The endpoint the socket is bound to (with the chosen port when bound to port 0).
    func localEndpoint() throws(UDPTransportError) -> UDPEndpoint {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0, let endpoint = Self.endpoint(from: storage, within: .loopback) else {
            throw .system(call: "getsockname", errno: errno)
        }
        return endpoint
    }

    /// Reads one datagram into a buffer of `capacity` bytes without blocking; its source is nil
    /// unless `sources` takes it.
    func receive(capacity: Int, sources: UDPSources) -> Received {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var count = 0
        // One allocation, filled by the kernel and trimmed to the datagram (no second copy).
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            count = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, buffer.baseAddress, capacity, Int32(MSG_TRUNC), $0, &length)
                }
            }
            initialized = max(0, min(count, capacity))
        }
        if count < 0 {
            let code = errno
            return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .empty : .failed(code)
        }
        return .datagram(bytes, length: count, source: Self.endpoint(from: storage, within: sources))
    }

    /// Sends one datagram without blocking.
    func send(_ bytes: [UInt8], to endpoint: UDPEndpoint) -> Sent {
        let count = bytes.withUnsafeBytes { raw in
            withSocketAddress(endpoint, mapped: dualStack) { sendto(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, $1) }
        }
        if count >= 0 { return .sent }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == ENOBUFS ? .full : .failed(code)
    }

    /// Prepares the socket to send announcements to a link-local group: out of interface
    /// `interfaceIndex` only, TTL 1 (never forwarded), and not looped back to this host.
    func enableMulticastSend(interfaceIndex: Int32) throws(UDPTransportError) {
        var ttl: Int32 = 1
        var loop: Int32 = 0
        var outgoing = ip_mreqn()
        outgoing.imr_ifindex = interfaceIndex
        guard setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &ttl, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw .system(call: "IP_MULTICAST_TTL", errno: errno)
        }
        guard setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_LOOP, &loop, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw .system(call: "IP_MULTICAST_LOOP", errno: errno)
        }
        guard setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_IF, &outgoing, socklen_t(MemoryLayout<ip_mreqn>.size)) == 0 else {
            throw .system(call: "IP_MULTICAST_IF", errno: errno)
        }
    }

    /// Prepares the socket to send announcements to an IPv6 link-local group: out of interface
    /// `interfaceIndex` only, hop limit `hopLimit`, and not looped back to this host.
    func enableMulticastSend6(interfaceIndex: Int32, hopLimit: Int32) throws(UDPTransportError) {
        var hops = hopLimit
        var loop: Int32 = 0
        var index = interfaceIndex
        guard setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_HOPS, &hops, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw .system(call: "IPV6_MULTICAST_HOPS", errno: errno)
        }
        guard setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_LOOP, &loop, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw .system(call: "IPV6_MULTICAST_LOOP", errno: errno)
        }
        guard setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_IF, &index, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw .system(call: "IPV6_MULTICAST_IF", errno: errno)
        }
    }

    /// Sends one datagram to a group, which need not be a unicast peer: an IPv4 address, or an
    /// IPv6 one on interface `scope`.
    func send(_ bytes: [UInt8], toGroup group: AnnouncementSource, port: UInt16) -> Sent {
        let count: Int
        switch group {
        case .ipv4(let address):
            guard dualStack else {
                var target = sockaddr_in()
                target.sin_family = sa_family_t(AF_INET)
                target.sin_port = port.bigEndian
                target.sin_addr.s_addr = address.bigEndian
                count = Self.send(bytes, fd: fd, to: &target)
                break
            }
            fallthrough
        case .ipv6:
            var target = sockaddr_in6()
            target.sin6_family = sa_family_t(AF_INET6)
            target.sin6_port = port.bigEndian
            switch group {
            case .ipv4(let address): target.sin6_addr = IPv6Address.mapping(address).in6
            case .ipv6(let address, let scope):
                target.sin6_addr = address.in6
                target.sin6_scope_id = scope
            }
            count = Self.send(bytes, fd: fd, to: &target)
        }
        if count >= 0 { return .sent }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == ENOBUFS ? .full : .failed(code)
    }

    private static func send<Address>(_ bytes: [UInt8], fd: Int32, to target: inout Address) -> Int {
        bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<Address>.size))
                }
            }
        }
    }

    /// Closes the descriptor.
    func close() { Glibc.close(fd) }

    /// Converts a received source address; nil for anything `sources` does not take. Reads the
    /// address as numbers: no text is formatted per datagram. An IPv4 address mapped into IPv6 (a
    /// dual-stack socket's IPv4 peer) is the IPv4 endpoint.
    static func endpoint(from storage: sockaddr_storage, within sources: UDPSources) -> UDPEndpoint? {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    UDPEndpoint(ipv4: UInt32(bigEndian: address.pointee.sin_addr.s_addr),
                                port: UInt16(bigEndian: address.pointee.sin_port), within: sources.subnet)
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    let host = IPv6Address(address.pointee.sin6_addr)
                    let port = UInt16(bigEndian: address.pointee.sin6_port)
                    if let mapped = host.mappedIPv4 { return UDPEndpoint(ipv4: mapped, port: port, within: sources.subnet) }
                    return UDPEndpoint(ipv6: host, scope: address.pointee.sin6_scope_id, port: port, linkLocalScope: sources.linkLocalScope)
                }
            }
        default:
            return nil
        }
    }
}

/// Which datagram sources a socket's reader takes: IPv4 ones in `subnet` (127.0.0.0/8, or the
/// LAN interface's subnet), and IPv6 link-local ones scoped to `linkLocalScope` (the LAN
/// interface's index); ::1 always. What is not taken counts in `rejected_source`.
struct UDPSources: Equatable, Sendable {
    /// The IPv4 sources; ``IPv4Subnet/none`` when the interface has no IPv4 address.
    var subnet: IPv4Subnet
    /// The interface index whose fe80::/10 sources are taken; nil: none.
    var linkLocalScope: UInt32?

    /// Loopback only.
    static let loopback = UDPSources(subnet: .loopback, linkLocalScope: nil)
}

/// Calls `body` with a socket address for an endpoint; `mapped`: an IPv4 one as `::ffff:a.b.c.d`
/// (for a dual-stack socket).
private func withSocketAddress<R>(_ endpoint: UDPEndpoint, mapped: Bool, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
    if endpoint.family == .ipv4, !mapped {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = endpoint.port.bigEndian
        address.sin_addr.s_addr = endpoint.ipv4.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_port = endpoint.port.bigEndian
    address.sin6_addr = endpoint.family == .ipv4 ? IPv6Address.mapping(endpoint.ipv4).in6 : endpoint.ipv6.in6
    address.sin6_scope_id = endpoint.scope
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
    }
}

/// Calls `body` with the wildcard address (`::` or `0.0.0.0`) on `port`.
private func withWildcardAddress<R>(port: UInt16, ipv6: Bool, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
    if ipv6 {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}
