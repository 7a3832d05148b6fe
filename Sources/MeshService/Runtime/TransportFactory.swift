import MeshConfig
import MeshCrypto
import MeshLink
import MeshNode
import UDPTransport

/// Builds the transports a configuration names.
enum TransportFactory {
    /// Every transport of `[transport] kind`, each behind the port of its place in the list; their
    /// counters and state reach `stats` and `status` through `MeshTransport.status`.
    static func make(config: DaemonSettings, identity: NodeIdentity, logger: DaemonLogger) throws(TransportSetError) -> TransportSet {
        var transports: [(name: String, transport: any MeshTransport)] = []
        for kind in config.transport.kinds {
            do {
                transports.append((kind.rawValue, try make(kind, config: config, identity: identity, logger: logger)))
            } catch {
                for (_, opened) in transports { opened.stop() }
                throw .startFailed(transport: kind.rawValue, reason: "\(error)")
            }
        }
        return TransportSet(transports)
    }

    /// One transport.
    static func make(_ kind: TransportKind, config: DaemonSettings, identity: NodeIdentity, logger: DaemonLogger) throws -> any MeshTransport {
        if let section = kind.udpSection {
            let settings = config[section]
            let frameBudget = config.links.frameBudget
            guard !settings.interface.isEmpty else {
                var configuration = try UDPTransportConfiguration(settings)
                configuration.frameBudget = frameBudget
                return try UDPTransport(configuration: configuration)
            }
            // A LAN waits for its interface rather than stopping the node's other transports.
            let serviceUUID = LANAnnouncement.uuidBytes(config.bluez.serviceUUID) ?? LANDiscoveryConfiguration.defaultServiceUUID
            let instanceTag = try randomInstanceTag()
            return InterfaceTransport(interface: settings.interface) { address in
                var configuration = try UDPTransportConfiguration(settings, on: address, serviceUUID: serviceUUID, instanceTag: instanceTag)
                configuration.frameBudget = frameBudget
                return try UDPTransport(configuration: configuration)
            }
        }
        return try BlueZTransportFactory.make(config: config, identity: identity, logger: logger)
    }

    /// A LAN announcement's instance tag (PROTOCOL.md Part I): 4 bytes from the system's secure
    /// random source, drawn once at start; it names no node and lets a node skip its own
    /// announcements.
    static func randomInstanceTag() throws(CryptoError) -> UInt32 {
        try SecureRandom.bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }
}
