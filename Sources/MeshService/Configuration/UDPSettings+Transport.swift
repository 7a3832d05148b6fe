import MeshConfig
import MeshLink
import UDPTransport

extension UDPTransportConfiguration {
    /// Creates settings from the `[udp]` or `[lan]` section of the daemon configuration, on
    /// loopback (`bind`); a section with an `interface` takes ``init(_:on:)`` instead.
    public init(_ config: UDPSettings) throws(UDPSettingsError) {
        let bind: UDPEndpoint
        do throws(UDPEndpointError) {
            bind = try UDPEndpoint(host: config.bind, port: config.port)
        } catch {
            throw .endpoint(error)
        }
        self.init(
            bind: bind, neighbours: config.neighbours,
            mtu: config.mtu, loss: config.loss, keepaliveInterval: config.keepaliveInterval,
            linkTimeout: config.linkTimeout, connectInterval: config.connectInterval, maxLinks: config.maxLinks)
    }

    /// Creates settings from a section with an `interface`, now that it has `address`: the socket
    /// binds that address and the interface, and reads only datagrams from its subnet, where every
    /// peer must lie. With `discovery` on, the node announces `serviceUUID` (16 bytes) and
    /// `instanceTag` (random, drawn at start: it names no node).
    public init(
        _ config: UDPSettings, on address: InterfaceAddress, serviceUUID: [UInt8] = LANDiscoveryConfiguration.defaultServiceUUID,
        instanceTag: UInt32 = 0
    ) throws(UDPSettingsError) {
        guard let bind = UDPEndpoint(ipv4: address.address, port: config.port, within: address.subnet) else {
            throw .interface(.noIPv4(address.name))
        }
        if let outside = config.neighbours.first(where: { $0.family != .ipv4 || !address.subnet.contains($0.ipv4) }) {
            throw .peerOutsideSubnet(outside, interface: address.name, subnet: address.subnet)
        }
        self.init(
            bind: bind, neighbours: config.neighbours,
            mtu: config.mtu, loss: config.loss, keepaliveInterval: config.keepaliveInterval,
            linkTimeout: config.linkTimeout, connectInterval: config.connectInterval, maxLinks: config.maxLinks,
            device: address.name, sources: address.subnet,
            discovery: config.discovery
                ? LANDiscoveryConfiguration(
                    announcement: LANAnnouncement(serviceUUID: serviceUUID, instanceTag: instanceTag, port: bind.port),
                    address: address.address, subnet: address.subnet)
                : nil)
    }
}

/// Why `[udp]` or `[lan]` settings give no UDP transport configuration.
public enum UDPSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `bind` and `port` are no endpoint.
    case endpoint(UDPEndpointError)
    /// The interface cannot be used.
    case interface(InterfaceAddressError)
    /// A peer lies outside the interface's subnet, whose datagrams alone are read.
    case peerOutsideSubnet(UDPEndpoint, interface: String, subnet: IPv4Subnet)

    /// One sentence.
    public var description: String {
        switch self {
        case .endpoint(let error): "bad bind address: \(error)"
        case .interface(let error): "\(error)"
        case .peerOutsideSubnet(let peer, let interface, let subnet): "peer \(peer) is outside \(interface)'s subnet \(subnet)"
        }
    }
}
