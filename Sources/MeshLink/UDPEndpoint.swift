import Glibc

/// A UDP address with a port (the UDP transport's link address, here so that the configuration can
/// parse `[udp]` without linking the transport): loopback, 127.0.0.0/8 or ::1, unless made with
/// `anyUnicast` for the LAN transport on an interface, which also takes IPv4 unicast addresses and
/// IPv6 link-local ones (fe80::/10) with their scope, the interface.
public struct UDPEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// IPv4 or IPv6.
    public enum Family: Sendable, Equatable {
        /// 127.0.0.0/8, or on the LAN an IPv4 unicast address.
        case ipv4
        /// ::1, or on the LAN a link-local address.
        case ipv6
    }

    /// The IPv4 address as a number (127.x.y.z); 0 for IPv6.
    /// Kept as a number, not text, so a received datagram's source needs no formatting or parsing.
    package let ipv4: UInt32
    /// The IPv6 address (::1 or fe80::/10); `::` for IPv4.
    public let ipv6: IPv6Address
    /// The interface index a link-local address is scoped to (`sin6_scope_id`); 0 otherwise, and
    /// for a link-local peer configured without `%interface` (the LAN transport gives it its own).
    public let scope: UInt32
    /// The UDP port.
    public let port: UInt16
    /// The address family.
    public let family: Family

    /// Creates an endpoint; `host` must be a loopback literal or `localhost` (= 127.0.0.1), or with
    /// `anyUnicast` also an IPv4 unicast address (not 0.0.0.0/8, multicast or broadcast) or an IPv6
    /// link-local one, optionally scoped: `fe80::1%eth0` (or `%2`, an interface index).
    ///
    /// Port 0 is allowed here (bind to any free port); `init(parsing:)` refuses it.
    public init(host: String, port: UInt16, anyUnicast: Bool = false) throws(UDPEndpointError) {
        let literal = host == "localhost" ? "127.0.0.1" : host
        let percent = literal.firstIndex(of: "%")
        if let v4 = Self.parseV4(literal) {
            if anyUnicast {
                guard v4 >> 24 == 127 || Self.isUnicast(v4) else { throw .notUnicast(host) }
            } else {
                guard v4 >> 24 == 127 else { throw .notLoopback(host) }
            }
            self.ipv4 = v4
            self.ipv6 = IPv6Address(high: 0, low: 0)
            self.scope = 0
            self.family = .ipv4
        } else if let v6 = IPv6Address(parsing: String(literal[..<(percent ?? literal.endIndex)])) {
            var scope: UInt32 = 0
            if let percent {
                let name = String(literal[literal.index(after: percent)...])
                scope = UInt32(name) ?? if_nametoindex(name)
                guard v6.isLinkLocal, anyUnicast, scope != 0 else { throw .badScope(host) }
            }
            guard v6.isLoopback || (anyUnicast && v6.isLinkLocal) else {
                throw anyUnicast ? .notLinkLocal(host) : .notLoopback(host)
            }
            self.ipv4 = 0
            self.ipv6 = v6
            self.scope = scope
            self.family = .ipv6
        } else {
            throw .notNumeric(host)
        }
        self.port = port
    }

    /// An IPv4 endpoint from a number (as `sockaddr_in` holds it, in host byte order); nil unless
    /// it is in `subnet` (by default 127.0.0.0/8) and unicast. For received datagrams: no text is built.
    package init?(ipv4 address: UInt32, port: UInt16, within subnet: IPv4Subnet = .loopback) {
        guard subnet.contains(address), address >> 24 == 127 || Self.isUnicast(address) else { return nil }
        self.ipv4 = address
        self.ipv6 = IPv6Address(high: 0, low: 0)
        self.scope = 0
        self.port = port
        self.family = .ipv4
    }

    /// An IPv6 endpoint from a received source: `::1`, or a link-local address whose scope is
    /// `linkLocalScope` (the LAN interface's index; nil: none is taken). Nil for anything else.
    package init?(ipv6 address: IPv6Address, scope: UInt32, port: UInt16, linkLocalScope: UInt32?) {
        if address.isLoopback {
            self.scope = 0
        } else {
            guard address.isLinkLocal, let linkLocalScope, linkLocalScope != 0, scope == linkLocalScope else { return nil }
            self.scope = scope
        }
        self.ipv4 = 0
        self.ipv6 = address
        self.port = port
        self.family = .ipv6
    }

    /// True for 127.0.0.0/8 and ::1.
    public var isLoopback: Bool { family == .ipv6 ? ipv6.isLoopback : ipv4 >> 24 == 127 }

    /// Whether an IPv4 address may be a LAN peer: not 0.0.0.0/8, 127.0.0.0/8, multicast
    /// (224.0.0.0/4), reserved (240.0.0.0/4) or broadcast.
    static func isUnicast(_ address: UInt32) -> Bool {
        address >> 24 != 0 && address >> 24 != 127 && address >> 28 < 0xe
    }

    /// The IPv6 loopback endpoint `[::1]:port`.
    package init(ipv6LoopbackPort port: UInt16) {
        self.ipv4 = 0
        self.ipv6 = .loopback
        self.scope = 0
        self.port = port
        self.family = .ipv6
    }

    /// This endpoint with another port.
    public func with(port: UInt16) -> UDPEndpoint { with(port: port, scope: scope) }

    /// This endpoint with a link-local address scoped to interface `scope` (other addresses unchanged).
    public func scoped(to scope: UInt32) -> UDPEndpoint { with(port: port, scope: ipv6.isLinkLocal ? scope : self.scope) }

    private func with(port: UInt16, scope: UInt32) -> UDPEndpoint {
        UDPEndpoint(ipv4: ipv4, ipv6: ipv6, scope: scope, port: port, family: family)
    }

    private init(ipv4: UInt32, ipv6: IPv6Address, scope: UInt32, port: UInt16, family: Family) {
        self.ipv4 = ipv4
        self.ipv6 = ipv6
        self.scope = scope
        self.port = port
        self.family = family
    }

    /// The address in canonical numeric form, such as `127.0.0.1`, `::1` or `fe80::1%eth0` (the
    /// interface's name, or its index when it has none now).
    public var host: String {
        guard family == .ipv6 else { return Self.dotted(ipv4) }
        guard scope != 0 else { return ipv6.description }
        var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE))
        let scopeName = if_indextoname(scope, &name) == nil
            ? String(scope) : String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(ipv6)%\(scopeName)"
    }

    /// An IPv4 address (host byte order) as `192.168.1.7`.
    public static func dotted(_ address: UInt32) -> String {
        "\(address >> 24).\(address >> 16 & 0xff).\(address >> 8 & 0xff).\(address & 0xff)"
    }

    /// Parses `127.0.0.1:7002`, `localhost:7002` or `[::1]:7002` (with `anyUnicast`, also
    /// `192.168.1.20:7101` and `[fe80::1%eth0]:7101`).
    public init(parsing text: String, anyUnicast: Bool = false) throws(UDPEndpointError) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[close...].hasPrefix("]:") else { throw .malformed(text) }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { throw .malformed(text) }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard portText.utf8.count <= 5, let port = UInt16(portText), port != 0 else { throw .badPort(String(portText)) }
        try self.init(host: String(host), port: port, anyUnicast: anyUnicast)
    }

    /// `127.0.0.1:7002`, `[::1]:7002` or `[fe80::1%eth0]:7101`.
    public var description: String { family == .ipv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    private static func parseV4(_ text: String) -> UInt32? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return UInt32(bigEndian: address.s_addr)
    }
}
