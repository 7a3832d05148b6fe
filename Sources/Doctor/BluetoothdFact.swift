/// What the system bus said about bluetoothd.
public enum BluetoothdFact: Equatable, Sendable {
    /// The system bus itself could not be reached.
    case noSystemBus(String)
    /// Nobody owns `org.bluez`.
    case absent
    /// The bus's policy does not let this user ask bluetoothd (AccessDenied: not root, not in group bluetooth).
    case denied(String)
    /// A call to the bus or to bluetoothd failed or timed out.
    case noReply(String)
    /// bluetoothd owns `org.bluez`; its version (from an adapter's `Modalias`), when known.
    case reachable(version: BlueZVersion?)
}
