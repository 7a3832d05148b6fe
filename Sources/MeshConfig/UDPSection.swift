/// The two sections that configure a UDP transport: `[udp]` and `[lan]`, each read into a
/// ``UDPSettings`` (``DaemonSettings/subscript(_:)``).
public enum UDPSection: String, CaseIterable, Sendable {
    /// `[udp]`, the `udp` transport.
    case udp
    /// `[lan]`, the `lan` transport.
    case lan
}

extension TransportKind {
    /// The section of a UDP transport's settings; nil for `bluez`.
    public var udpSection: UDPSection? {
        switch self {
        case .udp: .udp
        case .lan: .lan
        case .bluez: nil
        }
    }
}

extension DaemonSettings {
    /// The settings of `[udp]` or `[lan]`.
    public subscript(_ section: UDPSection) -> UDPSettings {
        get { section == .udp ? udp : lan }
        set {
            switch section {
            case .udp: udp = newValue
            case .lan: lan = newValue
            }
        }
    }
}
