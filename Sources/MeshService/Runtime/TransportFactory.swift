import MeshConfig
import MeshCrypto
import MeshLink
import MeshNode
import UDPTransport

/// Builds the transport a configuration names.
enum TransportFactory {
    /// The transport, and a closure that reads its counters for `stats`.
    static func make(
        config: DaemonSettings, identity: NodeIdentity, logger: DaemonLogger
    ) throws -> (any MeshTransport, @Sendable () -> [String: UInt64]) {
        switch config.transport.kind {
        case .udp:
            let transport = try UDPTransport(configuration: UDPTransportConfiguration(config.udp))
            return (transport, { CounterDictionary.make(from: transport.counters()) })
        case .bluez:
            return try BlueZTransportFactory.make(config: config, identity: identity, logger: logger)
        }
    }
}
