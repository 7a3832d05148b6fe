/// The mesh's GATT service and characteristic UUIDs (this project's own; docs/BLUEZ.md), in one
/// place for the BlueZ transport and the configuration's defaults.
public enum MeshGATTIdentity {
    /// The mesh service.
    public static let service = "8f2c0001-5e1a-4c7b-9d3e-6d657368ee01"
    /// The message characteristic (write, notify).
    public static let messageCharacteristic = "8f2c0002-5e1a-4c7b-9d3e-6d657368ee01"
    /// The profile characteristic (read).
    public static let profileCharacteristic = "8f2c0003-5e1a-4c7b-9d3e-6d657368ee01"
    /// Client slot 0's notify characteristic; slot k adds k to the first group (docs/BLUEZ.md,
    /// "Client slots").
    public static let clientSlotBase = "8f2c0100-5e1a-4c7b-9d3e-6d657368ee01"
}
