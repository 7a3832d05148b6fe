import GATTBridge
import MeshConfig
import MeshCrypto
import MeshLink
import MeshNode

/// Builds the BlueZ transport from `[bluez]` settings.
enum BlueZTransportFactory {
    /// The transport, its profile set.
    static func make(config: DaemonSettings, identity: NodeIdentity, logger: DaemonLogger) throws -> BlueZTransport {
        var addressAllow: Set<String> = []
        var addressDeny: Set<String> = []
        for filter in config.bluez.allow { if case .address(let text) = filter { addressAllow.insert(text.uppercased()) } }
        for filter in config.bluez.deny { if case .address(let text) = filter { addressDeny.insert(text.uppercased()) } }
        let configuration = BlueZConfiguration(
            adapter: config.bluez.adapter, localName: identity.shortID, serviceUUID: config.bluez.serviceUUID,
            allowAddresses: addressAllow, denyAddresses: addressDeny, maxConnections: config.bluez.maxConnections,
            gattServer: config.bluez.gattServer, clientSlots: config.bluez.clientSlots)
        let transport = try BlueZTransport(configuration: configuration) { event in
            let fields = LogFields(reason: "bluez")
            switch event.level {
            case .debug: logger.debug(.transportError, event.message, fields)
            case .info: logger.info(.general, event.message, fields)
            case .warning: logger.warning(.transportError, event.message, fields)
            case .error: logger.error(.transportError, event.message, fields)
            }
        }
        let profile = identity.profile(
            displayName: config.node.name, icon: config.node.icon, role: .relay)
        transport.setProfile(profile.encoded(), discoverable: true)
        return transport
    }
}
