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
    /// binds the interface (IPv4 and IPv6) and reads only datagrams from its IPv4 subnet and its
    /// link-local addresses, where every peer must lie (a link-local peer without `%interface` is
    /// taken as on this one). With `discovery` on, the node announces `serviceUUID` (16 bytes) and
    /// `instanceTag` (random, drawn at start: it names no node).
    public init(
        _ config: UDPSettings, on address: InterfaceAddress, serviceUUID: [UInt8] = LANDiscoveryConfiguration.defaultServiceUUID,
        instanceTag: UInt32 = 0
    ) throws(UDPSettingsError) {
        let primary = address.address.flatMap { UDPEndpoint(ipv4: $0, port: config.port, within: address.subnet) }
            ?? address.linkLocal.first.flatMap {
                UDPEndpoint(ipv6: $0, scope: address.index, port: config.port, linkLocalScope: address.index)
            }
        guard let bind = primary else { throw .interface(.noAddress(address.name)) }
        let neighbours = config.neighbours.map { $0.scope == 0 ? $0.scoped(to: address.index) : $0 }
        if let outside = neighbours.first(where: {
            $0.family == .ipv4 ? !address.subnet.contains($0.ipv4) : !$0.ipv6.isLinkLocal || $0.scope != address.index
        }) {
            guard outside.family == .ipv4, address.address == nil else {
                throw .peerOutsideSubnet(outside, interface: address.name, subnet: address.subnet)
            }
            // An IPv4 peer, and the interface has no IPv4 address yet: wait for one (DHCP).
            throw .interface(.noAddress(address.name))
        }
        self.init(
            bind: bind, neighbours: neighbours,
            mtu: config.mtu, loss: config.loss, keepaliveInterval: config.keepaliveInterval,
            linkTimeout: config.linkTimeout, connectInterval: config.connectInterval, maxLinks: config.maxLinks,
            device: address.name, sources: address.subnet, linkLocalScope: address.index,
            discovery: config.discovery
                ? LANDiscoveryConfiguration(
                    announcement: LANAnnouncement(serviceUUID: serviceUUID, instanceTag: instanceTag, port: bind.port),
                    address: address.address, subnet: address.subnet, interfaceIndex: address.index, linkLocal: address.linkLocal)
                : nil)
    }
}

/// Why `[udp]` or `[lan]` settings give no UDP transport configuration.
public enum UDPSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `bind` and `port` are no endpoint.
    case endpoint(UDPEndpointError)
    /// The interface cannot be used.
    case interface(InterfaceAddressError)
    /// A peer lies outside the interface's subnet and link-local addresses, whose datagrams alone are read.
    case peerOutsideSubnet(UDPEndpoint, interface: String, subnet: IPv4Subnet)

    /// One sentence.
    public var description: String {
        switch self {
        case .endpoint(let error): "bad bind address: \(error)"
        case .interface(let error): "\(error)"
        case .peerOutsideSubnet(let peer, let interface, let subnet):
            peer.family == .ipv4 ? "peer \(peer) is outside \(interface)'s subnet \(subnet)" : "peer \(peer) is no link-local address on \(interface)"
        }
    }
}
