
/// One entry of a BlueZ allow or deny list.
public enum PeerFilter: Hashable, Sendable, CustomStringConvertible {
    /// A BLE device address, uppercase `AA:BB:CC:DD:EE:FF`.
    case address(String)
    /// A node ID, lowercase 32 hex digits.
    case node(String)

    /// The entry as written in the configuration file.
    public var description: String {
        switch self {
        case .address(let text), .node(let text): text
        }
    }

    /// Parses a BLE address or a 32-hex-digit node ID.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) {
            self = .address(text.uppercased())
        } else if text.count == 32, text.allSatisfy(\.isHexDigit) {
            self = .node(text.lowercased())
        } else {
            return nil
        }
    }
}
