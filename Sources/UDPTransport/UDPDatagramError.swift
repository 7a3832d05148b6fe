import MeshLink
import MeshProtocol

/// Why a datagram was not accepted.
public enum UDPDatagramError: Error, Equatable, Sendable {
    /// Shorter than the 18-byte header.
    case truncated(Int)
    /// Longer than the header plus the largest MTU.
    case oversized(Int)
    /// The type byte is not a defined type.
    case unknownType(UInt8)
    /// Reserved flag bits are set, or the body does not fit the type.
    case malformed(String)
}
