import Glibc

/// An IPv6 address as two 64-bit numbers (the first and last 8 bytes, read big-endian), so that a
/// received datagram's source is compared and hashed with no text built.
public struct IPv6Address: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The first 8 bytes.
    public let high: UInt64
    /// The last 8 bytes.
    public let low: UInt64

    /// Creates an address from its two halves.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The address a `sockaddr_in6` holds.
    public init(_ address: in6_addr) {
        var address = address
        let bytes = withUnsafeBytes(of: &address) { Array($0) }
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Parses a numeric IPv6 address without a scope (`fe80::1`); nil for anything else.
    public init?(parsing text: String) {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        self.init(address)
    }

    /// `::1`.
    public static let loopback = IPv6Address(high: 0, low: 1)

    /// The 16 bytes as `in6_addr`.
    public var in6: in6_addr {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { bytes in
            for index in 0..<8 {
                bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
                bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
            }
        }
        return address
    }

    /// In fe80::/10, the link-local unicast block: valid only on one link, named by a scope.
    public var isLinkLocal: Bool { high >> 54 == 0x3FA }
    /// `::1`.
    public var isLoopback: Bool { self == .loopback }
    /// An IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`, as a dual-stack socket reports an
    /// IPv4 peer), or nil.
    public var mappedIPv4: UInt32? { high == 0 && low >> 32 == 0xFFFF ? UInt32(truncatingIfNeeded: low) : nil }

    /// `::ffff:a.b.c.d` for an IPv4 address (host byte order).
    public static func mapping(_ ipv4: UInt32) -> IPv6Address { IPv6Address(high: 0, low: 0xFFFF_0000_0000 | UInt64(ipv4)) }

    /// The canonical text form (RFC 5952), such as `fe80::1`.
    public var description: String {
        var address = in6
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        _ = inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Orders by value.
    public static func < (lhs: IPv6Address, rhs: IPv6Address) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
