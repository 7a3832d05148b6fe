/// An address and prefix length, IPv4 or IPv6 (`192.168.1.0/24`), as in `IPAddressAllow=`.
public struct AddressPrefix: Equatable, Sendable, CustomStringConvertible {
    /// The address's bytes: 4 for IPv4, 16 for IPv6.
    public var bytes: [UInt8]
    /// How many leading bits name the network.
    public var length: Int

    /// Creates a prefix; `length` is clamped to the address's bits.
    public init(bytes: [UInt8], length: Int) {
        self.bytes = bytes
        self.length = min(max(length, 0), bytes.count * 8)
    }

    /// Parses dotted IPv4 with an optional `/length` (`10.0.0.0/8`, `224.0.0.254`); nil otherwise.
    public init?(ipv4 text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, !first.isEmpty else { return nil }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        guard octets.count == 4, parts[0].split(separator: ".", omittingEmptySubsequences: false).count == 4 else { return nil }
        let length = parts.count == 2 ? Int(parts[1]) : 32
        guard let length, (0...32).contains(length) else { return nil }
        self.init(bytes: octets, length: length)
    }

    /// Whether every address of `other` (same family) is in this prefix.
    public func contains(_ other: AddressPrefix) -> Bool {
        other.bytes.count == bytes.count && other.length >= length && leadingBitsEqual(other, length)
    }

    /// Whether the two prefixes (same family) share an address.
    public func overlaps(_ other: AddressPrefix) -> Bool {
        other.bytes.count == bytes.count && leadingBitsEqual(other, min(length, other.length))
    }

    private func leadingBitsEqual(_ other: AddressPrefix, _ bits: Int) -> Bool {
        for index in 0..<bytes.count {
            let used = min(max(bits - index * 8, 0), 8)
            guard used > 0 else { return true }
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - used))
            if bytes[index] & mask != other.bytes[index] & mask { return false }
        }
        return true
    }

    /// `192.168.1.0/24`; IPv6 as hex groups.
    public var description: String {
        let address = bytes.count == 4
            ? bytes.map(String.init).joined(separator: ".")
            : stride(from: 0, to: bytes.count, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
        return "\(address)/\(length)"
    }
}
