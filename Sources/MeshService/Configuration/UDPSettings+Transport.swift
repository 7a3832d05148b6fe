import MeshConfig
import MeshLink
import UDPTransport

extension UDPTransportConfiguration {
    /// Creates settings from the `[udp]` or `[lan]` section of the daemon configuration. With an
    /// `interface`, its IPv4 address is looked up now: the socket binds it and the interface, and
    /// reads only datagrams from its subnet, where every peer must lie.
    public init(_ config: UDPSettings) throws(UDPSettingsError) {
        var bind: UDPEndpoint
        var device: String?
        var sources = IPv4Subnet.loopback
        if config.interface.isEmpty {
            do throws(UDPEndpointError) {
                bind = try UDPEndpoint(host: config.bind, port: config.port)
            } catch {
                throw .endpoint(error)
            }
        } else {
            let interface: InterfaceAddress
            do throws(InterfaceAddressError) {
                interface = try InterfaceAddress.lookup(config.interface)
            } catch {
                throw .interface(error)
            }
            guard let address = UDPEndpoint(ipv4: interface.address, port: config.port, within: interface.subnet) else {
                throw .interface(.noIPv4(config.interface))
            }
            if let outside = config.neighbours.first(where: { $0.family != .ipv4 || !interface.subnet.contains($0.ipv4) }) {
                throw .peerOutsideSubnet(outside, interface: interface.name, subnet: interface.subnet)
            }
            bind = address
            device = interface.name
            sources = interface.subnet
        }
        self.init(
            bind: bind, neighbours: config.neighbours,
            mtu: config.mtu, loss: config.loss, keepaliveInterval: config.keepaliveInterval,
            linkTimeout: config.linkTimeout, connectInterval: config.connectInterval, maxLinks: config.maxLinks,
            device: device, sources: sources)
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
