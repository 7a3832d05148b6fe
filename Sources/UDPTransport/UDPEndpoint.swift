import Glibc

/// A loopback UDP address: 127.0.0.0/8 or ::1, with a port.
public struct UDPEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// IPv4 or IPv6.
    public enum Family: Sendable, Equatable {
        /// 127.0.0.0/8.
        case ipv4
        /// ::1.
        case ipv6
    }

    /// The address in canonical numeric form, such as `127.0.0.1` or `::1`.
    public let host: String
    /// The UDP port.
    public let port: UInt16
    /// The address family.
    public let family: Family

    /// Creates an endpoint; `host` must be a loopback literal or `localhost` (= 127.0.0.1).
    ///
    /// Port 0 is allowed here (bind to any free port); `init(parsing:)` refuses it.
    public init(host: String, port: UInt16) throws(UDPEndpointError) {
        let literal = host == "localhost" ? "127.0.0.1" : host
        if let v4 = Self.parseV4(literal) {
            guard v4.0 == 127 else { throw .notLoopback(host) }
            self.host = "\(v4.0).\(v4.1).\(v4.2).\(v4.3)"
            self.family = .ipv4
        } else if Self.isV6Literal(literal) {
            guard Self.isV6Loopback(literal) else { throw .notLoopback(host) }
            self.host = "::1"
            self.family = .ipv6
        } else {
            throw .notNumeric(host)
        }
        self.port = port
    }

    /// Parses `127.0.0.1:7002`, `localhost:7002` or `[::1]:7002`.
    public init(parsing text: String) throws(UDPEndpointError) {
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
        try self.init(host: String(host), port: port)
    }

    /// `127.0.0.1:7002` or `[::1]:7002`.
    public var description: String { family == .ipv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    private static func parseV4(_ text: String) -> (UInt8, UInt8, UInt8, UInt8)? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        let value = UInt32(bigEndian: address.s_addr)
        return (UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff))
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
