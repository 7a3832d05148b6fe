/// The result of handing one frame to a transport.
public enum SendOutcome: Sendable, Equatable {
    /// The transport took the frame.
    case sent
    /// The link's send queue is full; the frame was not taken.
    case full
    /// The link no longer exists.
    case gone
}
