/// How many client slots a node exports (docs/BLUEZ.md, "Client slots"), in one place for the BlueZ
/// transport and the configuration's `[bluez] client_slots` bounds.
public enum ClientSlotLimits {
    /// Slots a node exports by default.
    public static let defaultCount = 4
    /// Most slots a node may export.
    public static let maxCount = 16
}
