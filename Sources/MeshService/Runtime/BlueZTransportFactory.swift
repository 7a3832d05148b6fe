import GATTBridge
import MeshConfig
import MeshCrypto
import MeshLink
import MeshNode

/// Builds the BlueZ transport from `[bluez]` settings.
enum BlueZTransportFactory {
    /// The transport, its profile set.
    static func make(config: DaemonSettings, identity: NodeIdentity, logger: DaemonLogger) throws -> BlueZTransport {
        // The name of this epoch by the local clock; the runtime renames it as mesh time goes (PROTOCOL.md D13).
        let epoch = AdvertisedName.epoch(meshTime: DaemonRunner.wallClockMilliseconds())
        let configuration = config.bluez.configuration(localName: try AdvertisedName(identity: identity).name(epoch: epoch),
                                                       privacyConfigured: BluetoothdPrivacy.configured())
        logger.info(.general, configuration.rotateAddress
            ? "the adapter is powered off and on whenever the advertised name changes, for a new private address"
            : "the adapter's address does not change with the advertised name ([bluez] rotate_address)")
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
