/// A transport a node can run; `[transport] kind` lists one or more.
public enum TransportKind: String, CaseIterable, Sendable {
    /// Loopback UDP between processes on one machine, from `[udp]`.
    case udp
    /// The UDP link protocol from `[lan]`, beside `udp`: a second UDP port with its own peers
    /// (loopback addresses only, as `udp`).
    case lan
    /// Bluetooth LE through BlueZ over D-Bus.
    case bluez

    /// True for the transports that speak the UDP link protocol (`udp`, `lan`).
    public var isUDP: Bool { self != .bluez }
}
