/// A transport a node can run; `[transport] kind` lists one or more.
public enum TransportKind: String, CaseIterable, Sendable {
    /// Loopback UDP between processes on one machine, from `[udp]`.
    case udp
    /// The UDP link protocol from `[lan]`, beside `udp`: a second UDP port with its own peers,
    /// on loopback or on a network interface (`[lan] interface`).
    case lan
    /// Bluetooth LE through BlueZ over D-Bus.
    case bluez
}
