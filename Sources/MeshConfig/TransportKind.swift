/// Which transport carries frames.
public enum TransportKind: String, CaseIterable, Sendable {
    /// Loopback UDP between processes on one machine.
    case udp
    /// Bluetooth LE through BlueZ over D-Bus.
    case bluez
}
