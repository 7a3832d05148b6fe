import GATTBridge
import MeshConfig

extension BlueZSettings {
    /// The BlueZ transport's configuration for these settings, advertising `localName`. The node IDs
    /// of `allow` and `deny` go to the engine (`DaemonSettings.engineConfiguration`), the BLE
    /// addresses here.
    func configuration(localName: String) -> BlueZConfiguration {
        var addressAllow: Set<String> = []
        var addressDeny: Set<String> = []
        for filter in allow { if case .address(let text) = filter { addressAllow.insert(text.uppercased()) } }
        for filter in deny { if case .address(let text) = filter { addressDeny.insert(text.uppercased()) } }
        return BlueZConfiguration(
            adapter: adapter, localName: localName, serviceUUID: serviceUUID,
            allowAddresses: addressAllow, denyAddresses: addressDeny, maxConnections: maxConnections,
            gattServer: gattServer, clientSlots: clientSlots)
    }
}
