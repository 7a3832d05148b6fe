import Glibc

/// A UDP address with a port (the UDP transport's link address, here so that the configuration can
/// parse `[udp]` without linking the transport): loopback, 127.0.0.0/8 or ::1, unless made with
/// `anyUnicast` for the LAN transport on an interface, which also takes IPv4 unicast addresses.
public struct UDPEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// IPv4 or IPv6.
    public enum Family: Sendable, Equatable {
        /// 127.0.0.0/8.
        case ipv4
        /// ::1.
        case ipv6
    }

    /// The IPv4 address as a number (127.x.y.z); 0 for IPv6, whose only loopback address is ::1.
    /// Kept as a number, not text, so a received datagram's source needs no formatting or parsing.
    package let ipv4: UInt32
    /// The UDP port.
    public let port: UInt16
    /// The address family.
    public let family: Family

    /// Creates an endpoint; `host` must be a loopback literal or `localhost` (= 127.0.0.1), or with
    /// `anyUnicast` also an IPv4 unicast address (not 0.0.0.0/8, multicast or broadcast).
    ///
    /// Port 0 is allowed here (bind to any free port); `init(parsing:)` refuses it.
    public init(host: String, port: UInt16, anyUnicast: Bool = false) throws(UDPEndpointError) {
        let literal = host == "localhost" ? "127.0.0.1" : host
        if let v4 = Self.parseV4(literal) {
            if anyUnicast {
                guard v4 >> 24 == 127 || Self.isUnicast(v4) else { throw .notUnicast(host) }
            } else {
                guard v4 >> 24 == 127 else { throw .notLoopback(host) }
            }
            self.ipv4 = v4
            self.family = .ipv4
        } else if Self.isV6Literal(literal) {
            guard Self.isV6Loopback(literal) else { throw .notLoopback(host) }
            self.ipv4 = 0
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
        self.port = port
        self.family = .ipv4
    }

    /// True for 127.0.0.0/8 and ::1.
    public var isLoopback: Bool { family == .ipv6 || ipv4 >> 24 == 127 }

    /// Whether an IPv4 address may be a LAN peer: not 0.0.0.0/8, 127.0.0.0/8, multicast
    /// (224.0.0.0/4), reserved (240.0.0.0/4) or broadcast.
    static func isUnicast(_ address: UInt32) -> Bool {
        address >> 24 != 0 && address >> 24 != 127 && address >> 28 < 0xe
    }

    /// The IPv6 loopback endpoint `[::1]:port`.
    package init(ipv6LoopbackPort port: UInt16) {
        self.ipv4 = 0
        self.port = port
        self.family = .ipv6
    }

    /// The address in canonical numeric form, such as `127.0.0.1` or `::1`.
    public var host: String { family == .ipv6 ? "::1" : Self.dotted(ipv4) }

    /// An IPv4 address (host byte order) as `192.168.1.7`.
    public static func dotted(_ address: UInt32) -> String {
        "\(address >> 24).\(address >> 16 & 0xff).\(address >> 8 & 0xff).\(address & 0xff)"
    }

    /// Parses `127.0.0.1:7002`, `localhost:7002` or `[::1]:7002` (with `anyUnicast`, also
    /// `192.168.1.20:7101`).
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

    /// `127.0.0.1:7002` or `[::1]:7002`.
    public var description: String { family == .ipv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    private static func parseV4(_ text: String) -> UInt32? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return UInt32(bigEndian: address.s_addr)
    }

    private static func isV6Literal(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    private static func isV6Loopback(_ text: String) -> Bool {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return false }
        return withUnsafeBytes(of: &address) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }
}
