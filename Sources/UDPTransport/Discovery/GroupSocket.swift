import Glibc
import MeshLink

/// A socket LAN discovery hears announcements on: bound to the group and port, to the
/// interface (`SO_BINDTODEVICE`), a member of the group on that interface only, and told to report
/// each datagram's TTL (`IP_RECVTTL`) or, on IPv6, its hop limit (`IPV6_RECVHOPLIMIT`).
struct GroupSocket: Sendable {
    /// What one `receive` call found.
    enum Received: Equatable {
        /// A datagram (at most `capacity` bytes kept; `length` is its real length), its source
        /// (nil for another family than the socket's) and its TTL or hop limit when the kernel
        /// reported it.
        case datagram([UInt8], length: Int, source: AnnouncementSource?, ttl: Int?)
        /// Nothing more to read now.
        case empty
        /// The read failed with `errno`.
        case failed(Int32)
    }

    /// The socket's file descriptor.
    let fd: Int32
    /// Whether it is the IPv6 group's socket.
    let ipv6: Bool

    /// Opens the socket and joins `group` on `device`, whose index is `interfaceIndex`.
    static func open(group: UInt32, port: UInt16, device: String, interfaceIndex: Int32) throws(UDPTransportError) -> GroupSocket {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", errno: errno) }
        func fail(_ call: String) -> UDPTransportError {
            let code = errno
            Glibc.close(fd)
            return .system(call: call, errno: code)
        }
        var one: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else { throw fail("SO_REUSEADDR") }
        let name = Array(device.utf8)
        guard name.withUnsafeBytes({ setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, $0.baseAddress, socklen_t($0.count)) }) == 0 else {
            throw fail("SO_BINDTODEVICE \(device)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = group.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw fail("bind \(UDPEndpoint.dotted(group)):\(port)") }
        var membership = ip_mreqn()
        membership.imr_multiaddr.s_addr = group.bigEndian
        membership.imr_ifindex = interfaceIndex
        guard setsockopt(fd, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &membership, socklen_t(MemoryLayout<ip_mreqn>.size)) == 0 else {
            throw fail("IP_ADD_MEMBERSHIP \(UDPEndpoint.dotted(group)) on \(device)")
        }
        // Only this interface's traffic for the group: not other sockets' memberships on other interfaces.
        var zero: Int32 = 0
        _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_ALL, &zero, socklen_t(MemoryLayout<Int32>.size))
        guard setsockopt(fd, Int32(IPPROTO_IP), IP_RECVTTL, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else { throw fail("IP_RECVTTL") }
        return GroupSocket(fd: fd, ipv6: false)
    }

    /// Opens an IPv6 socket and joins `group` (link-local scope) on `device`, whose index is
    /// `interfaceIndex`. Fails where IPv6 is off (the kernel has none, or the interface has it disabled).
    static func open(group: IPv6Address, port: UInt16, device: String, interfaceIndex: Int32) throws(UDPTransportError) -> GroupSocket {
        let fd = socket(AF_INET6, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket AF_INET6", errno: errno) }
        func fail(_ call: String) -> UDPTransportError {
            let code = errno
            Glibc.close(fd)
            return .system(call: call, errno: code)
        }
        var one: Int32 = 1
        guard setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else { throw fail("IPV6_V6ONLY") }
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else { throw fail("SO_REUSEADDR") }
        let name = Array(device.utf8)
        guard name.withUnsafeBytes({ setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, $0.baseAddress, socklen_t($0.count)) }) == 0 else {
            throw fail("SO_BINDTODEVICE \(device)")
        }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        address.sin6_addr = group.in6
        address.sin6_scope_id = UInt32(bitPattern: interfaceIndex)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        guard bound == 0 else { throw fail("bind [\(group)]:\(port)") }
        var membership = ipv6_mreq()
        membership.ipv6mr_multiaddr = group.in6
        membership.ipv6mr_interface = UInt32(bitPattern: interfaceIndex)
        guard setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_JOIN_GROUP, &membership, socklen_t(MemoryLayout<ipv6_mreq>.size)) == 0 else {
            throw fail("IPV6_JOIN_GROUP \(group) on \(device)")
        }
        var zero: Int32 = 0
        // Only this interface's traffic for the group (Linux 4.20; an older kernel refuses it, which
        // only lets other sockets' memberships of the same group in).
        _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_ALL, &zero, socklen_t(MemoryLayout<Int32>.size))
        guard setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_RECVHOPLIMIT, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw fail("IPV6_RECVHOPLIMIT")
        }
        return GroupSocket(fd: fd, ipv6: true)
    }


    /// Reads one datagram into a buffer of `capacity` bytes without blocking, with its TTL.
    func receive(capacity: Int) -> Received {
        var source = sockaddr_storage()
        var control = [UInt64](repeating: 0, count: 8)
        var count = 0
        var controlLength = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var vector = iovec(iov_base: UnsafeMutableRawPointer(buffer.baseAddress), iov_len: capacity)
            count = withUnsafeMutablePointer(to: &source) { sourcePointer in
                withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    control.withUnsafeMutableBytes { controlBytes in
                        var message = msghdr()
                        message.msg_name = UnsafeMutableRawPointer(sourcePointer)
                        message.msg_namelen = socklen_t(MemoryLayout<sockaddr_storage>.size)
                        message.msg_iov = vectorPointer
                        message.msg_iovlen = 1
                        message.msg_control = controlBytes.baseAddress
                        message.msg_controllen = controlBytes.count
                        let result = recvmsg(fd, &message, Int32(MSG_TRUNC))
                        controlLength = Int(message.msg_controllen)
                        return result
                    }
                }
            }
            initialized = max(0, min(count, capacity))
        }
        if count < 0 {
            let code = errno
            return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .empty : .failed(code)
        }
        let ttl = control.withUnsafeBytes { Self.ttl(in: UnsafeRawBufferPointer(rebasing: $0.prefix(controlLength))) }
        return .datagram(bytes, length: count, source: Self.source(source, ipv6: ipv6), ttl: ttl)
    }

    /// A received source address of the socket's family, as numbers.
    static func source(_ storage: sockaddr_storage, ipv6: Bool) -> AnnouncementSource? {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET where !ipv6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .ipv4(UInt32(bigEndian: $0.pointee.sin_addr.s_addr)) }
            }
        case AF_INET6 where ipv6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    .ipv6(IPv6Address($0.pointee.sin6_addr), scope: $0.pointee.sin6_scope_id)
                }
            }
        default:
            return nil
        }
    }

    /// The `IP_TTL` (or `IPV6_HOPLIMIT`) value among control messages (`struct cmsghdr` records:
    /// length, level, type, then the data, each record padded to the size of a `size_t`), if there is one.
    static func ttl(in control: UnsafeRawBufferPointer) -> Int? {
        let word = MemoryLayout<Int>.size
        let header = word + 2 * MemoryLayout<Int32>.size
        var offset = 0
        while offset + header <= control.count {
            let length = control.loadUnaligned(fromByteOffset: offset, as: Int.self)
            guard length >= header, offset + length <= control.count else { return nil }
            let level = control.loadUnaligned(fromByteOffset: offset + word, as: Int32.self)
            let type = control.loadUnaligned(fromByteOffset: offset + word + 4, as: Int32.self)
            let isTTL = (level == Int32(IPPROTO_IP) && type == IP_TTL) || (level == Int32(IPPROTO_IPV6) && type == IPV6_HOPLIMIT)
            if isTTL, length >= header + 4 {
                return Int(control.loadUnaligned(fromByteOffset: offset + header, as: Int32.self))
            }
            offset += (length + word - 1) / word * word
        }
        return nil
    }

    /// Closes the descriptor.
    func close() { Glibc.close(fd) }
}
