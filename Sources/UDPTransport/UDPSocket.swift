import Glibc
import MeshLink

/// A non-blocking UDP socket bound to a loopback endpoint, or on the LAN to an interface's address.
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
    /// The IPv4 sources whose datagrams are read (127.0.0.0/8, or the LAN interface's subnet).
    let sources: IPv4Subnet
    /// The receive buffer asked of the kernel (4 MiB; it may give less).
    static let receiveBufferBytes = 4 << 20

    /// Opens a socket and binds it; with a `device`, only datagrams that arrive on that interface
    /// reach it (`SO_BINDTODEVICE`), and only those from `sources` are read.
    static func bind(_ endpoint: UDPEndpoint, device: String? = nil, sources: IPv4Subnet = .loopback) throws(UDPTransportError) -> UDPSocket {
        let family = endpoint.family == .ipv4 ? AF_INET : AF_INET6
        let fd = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
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
        let result = withSocketAddress(endpoint) { Glibc.bind(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system(call: "bind \(endpoint)", errno: code)
        }
        // All links share this socket: a deep receive buffer lets a quiet neighbour's datagrams
        // ride out a moment when a flooding one fills it faster than the node reads. The kernel
        // caps the size at net.core.rmem_max; a smaller buffer still works, so a refusal is no error.
        var receiveBuffer = Int32(Self.receiveBufferBytes)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size))
        return UDPSocket(fd: fd, sources: sources)
    }

    /// The endpoint the socket is bound to (with the chosen port when bound to port 0).
    func localEndpoint() throws(UDPTransportError) -> UDPEndpoint {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0, let endpoint = Self.endpoint(from: storage, within: sources) else {
            throw .system(call: "getsockname", errno: errno)
        }
        return endpoint
    }

    /// Reads one datagram into a buffer of `capacity` bytes without blocking.
    func receive(capacity: Int) -> Received {
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
            withSocketAddress(endpoint) { sendto(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, $1) }
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

    /// Sends one datagram to an IPv4 address that need not be a unicast peer (the discovery group).
    func send(_ bytes: [UInt8], toIPv4 address: UInt32, port: UInt16) -> Sent {
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        target.sin_addr.s_addr = address.bigEndian
        let count = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        if count >= 0 { return .sent }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == ENOBUFS ? .full : .failed(code)
    }

    /// Closes the descriptor.
    func close() { Glibc.close(fd) }

    /// Converts a received source address; nil for anything outside `sources` (IPv4) or not ::1.
    /// Reads the address as a number: no text is formatted per datagram.
    static func endpoint(from storage: sockaddr_storage, within sources: IPv4Subnet = .loopback) -> UDPEndpoint? {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    UDPEndpoint(ipv4: UInt32(bigEndian: address.pointee.sin_addr.s_addr),
                                port: UInt16(bigEndian: address.pointee.sin_port), within: sources)
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    let isLoopback = withUnsafeBytes(of: &raw) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
                    return isLoopback ? UDPEndpoint(ipv6LoopbackPort: UInt16(bigEndian: address.pointee.sin6_port)) : nil
                }
            }
        default:
            return nil
        }
    }
}

/// Calls `body` with a socket address for an endpoint.
private func withSocketAddress<R>(_ endpoint: UDPEndpoint, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
    switch endpoint.family {
    case .ipv4:
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = endpoint.port.bigEndian
        address.sin_addr.s_addr = endpoint.ipv4.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    case .ipv6:
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = endpoint.port.bigEndian
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
    }
}
