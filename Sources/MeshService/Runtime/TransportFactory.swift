import MeshConfig
import MeshCrypto
import MeshLink
import MeshNode
import UDPTransport

/// Builds the transport a configuration names.
enum TransportFactory {
    /// The transport; its counters and state reach `stats` and `status` through `MeshTransport.status`.
    static func make(config: DaemonSettings, identity: NodeIdentity, logger: DaemonLogger) throws -> any MeshTransport {
        switch config.transport.kind {
        case .udp:
            return try UDPTransport(configuration: UDPTransportConfiguration(config.udp))
        case .bluez:
            return try BlueZTransportFactory.make(config: config, identity: identity, logger: logger)
        }
    }
}
