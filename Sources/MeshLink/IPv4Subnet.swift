/// An IPv4 network, such as `192.168.1.0/24`: the addresses that share its first `prefixLength`
/// bits. The LAN transport accepts datagrams only from its interface's subnet.
public struct IPv4Subnet: Hashable, Sendable, CustomStringConvertible {
    /// The network's address (host bits zero), as a number in host byte order.
    public let network: UInt32
    /// The number of leading bits that name the network, 0...32.
    public let prefixLength: Int

    /// The subnet of `prefixLength` (clamped to 0...32) leading bits of `address`.
    public init(address: UInt32, prefixLength: Int) {
        self.prefixLength = min(max(prefixLength, 0), 32)
        self.network = address & Self.mask(self.prefixLength)
    }

    /// The subnet an address and its netmask describe (a netmask's leading ones count; the kernel
    /// gives contiguous masks).
    public init(address: UInt32, netmask: UInt32) {
        self.init(address: address, prefixLength: netmask.leadingZeroBitCount == 0 ? (~netmask).leadingZeroBitCount : 0)
    }

    /// 127.0.0.0/8, every IPv4 loopback address.
    public static let loopback = IPv4Subnet(address: 0x7f00_0000, prefixLength: 8)

    /// 0.0.0.0/32, which holds no unicast address: the IPv4 sources of an interface without an
    /// IPv4 address.
    public static let none = IPv4Subnet(address: 0, prefixLength: 32)

    /// Whether `address` lies in this subnet.
    public func contains(_ address: UInt32) -> Bool { address & Self.mask(prefixLength) == network }

    /// `192.168.1.0/24`.
    public var description: String { "\(UDPEndpoint.dotted(network))/\(prefixLength)" }

    private static func mask(_ prefixLength: Int) -> UInt32 { prefixLength == 0 ? 0 : ~UInt32(0) << (32 - prefixLength) }
}
