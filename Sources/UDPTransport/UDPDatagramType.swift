import MeshLink
import MeshProtocol

/// The datagram types of the loopback link protocol (docs/OPERATIONS.md, "UDP link protocol").
public enum UDPDatagramType: UInt8, Sendable, CaseIterable {
    /// Central → peripheral: open a link; body is the central's MTU (2 bytes).
    case connect = 1
    /// Peripheral → central: link accepted; body is the peripheral's MTU (2 bytes).
    case accept = 2
    /// Either way: one frame; body is the frame.
    case frame = 3
    /// Either way: the link is alive; empty body.
    case keepalive = 4
    /// Either way: the link is closed or unknown; empty body. For a live link it only starts a challenge.
    case close = 5
    /// Either way: "are you still on this link?"; body is an 8-byte random challenge.
    case challenge = 6
    /// Either way: the reply to a challenge; body is the 8 challenge bytes and a verdict byte.
    case answer = 7
}
