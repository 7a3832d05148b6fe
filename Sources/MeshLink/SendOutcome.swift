/// The result of handing one frame to a transport.
public enum SendOutcome: Sendable, Equatable {
    /// The transport took the frame. For UDP it is on its way; for BlueZ it is accepted for the
    /// D-Bus loop thread, which then writes, notifies or holds it, or refuses it and counts it in the
    /// transport's counters (a link that is gone by then is counted and dropped, and reports its
    /// `.linkDown`). The engine counts only outcomes other than `.sent`.
    case sent
    /// The link's send queue is full; the frame was not taken (UDP; BlueZ counts this on its loop thread).
    case full
    /// The link no longer exists (BlueZ: the transport is not running).
    case gone
}
