import MeshLink

/// `[bluez]` settings for the Bluetooth LE transport.
public struct BlueZSettings: Equatable, Sendable {
    /// The BlueZ adapter, such as `hci0`.
    public var adapter = "hci0"
    /// The mesh's GATT service UUID.
    public var serviceUUID = MeshGATTIdentity.service
    /// When not empty, only these devices or nodes are linked.
    public var allow: [PeerFilter] = []
    /// These devices or nodes are never linked.
    public var deny: [PeerFilter] = []
    /// The most simultaneous BLE connections, both roles together.
    public var maxConnections = 8
    /// Whether to host the mesh GATT service and advertise (a node). `false` makes a client that
    /// only dials nodes, subscribes, and receives every frame as a notification (docs/BLUEZ.md).
    public var gattServer = true
    /// Client slot characteristics exported: how many clients without a GATT server are served at
    /// once (docs/BLUEZ.md, "Client slots"); 0 exports none.
    public var clientSlots = ClientSlotLimits.defaultCount
    /// Whether the adapter is powered off and on so that its address changes with the advertised name
    /// (docs/BLUEZ.md, "Addresses"). `auto` by default: on when bluetoothd's main.conf sets `Privacy`
    /// (an operator who turned privacy on gets addresses that do not link the hours; each cycle drops
    /// every link for a moment).
    public var rotateAddress = AddressRotationSetting.auto

    /// Creates the defaults.
    public init() {}
}

/// `[bluez] rotate_address`: whether the adapter's address changes with the advertised name.
public enum AddressRotationSetting: String, CaseIterable, Equatable, Sendable {
    /// On when bluetoothd's main.conf turns `Privacy` on (without privacy a power cycle keeps the
    /// public address and costs every link for nothing).
    case auto
    /// Always on.
    case on
    /// Never: the kernel changes the address on its own timer only.
    case off
}
