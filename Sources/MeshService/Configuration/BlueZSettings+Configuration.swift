import GATTBridge
import MeshConfig

extension BlueZSettings {
    /// The BlueZ transport's configuration for these settings, advertising `localName`. The node IDs
    /// of `allow` and `deny` go to the engine (`DaemonSettings.engineConfiguration`), the BLE
    /// addresses here.
    /// `privacyConfigured`: whether bluetoothd's main.conf turns `Privacy` on (``BluetoothdPrivacy``),
    /// which `rotate_address = auto` follows.
    func configuration(localName: String, privacyConfigured: Bool = false) -> BlueZConfiguration {
        var addressAllow: Set<String> = []
        var addressDeny: Set<String> = []
        for filter in allow { if case .address(let text) = filter { addressAllow.insert(text.uppercased()) } }
        for filter in deny { if case .address(let text) = filter { addressDeny.insert(text.uppercased()) } }
        var configuration = BlueZConfiguration(
            adapter: adapter, localName: localName, serviceUUID: serviceUUID,
            allowAddresses: addressAllow, denyAddresses: addressDeny, maxConnections: maxConnections,
            gattServer: gattServer, clientSlots: clientSlots)
        configuration.rotateAddress = switch rotateAddress {
        case .on: true
        case .off: false
        case .auto: privacyConfigured
        }
        return configuration
    }
}
