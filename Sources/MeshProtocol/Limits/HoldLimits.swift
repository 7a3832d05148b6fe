/// How much the node holds for neighbours whose links are down (docs/PROTOCOL.md Part E,
/// "Holding for a neighbour in its grace").
///
/// A message or join notice addressed to a neighbour that has no ready link (it is inside its
/// departure grace, or its link is still keying) waits here until one of its links is ready
/// again. Every bound is per neighbour except `totalBytes`, which caps all queues together so
/// that identities minted by the thousand cannot make the node hold without limit.
public struct HoldLimits: Equatable, Sendable {
    /// The most envelopes held for one neighbour; the oldest is evicted past it (0: hold nothing).
    public var messagesPerNeighbour: Int
    /// The most encoded envelope bytes held for one neighbour; the oldest is evicted past it.
    public var bytesPerNeighbour: Int
    /// The most encoded envelope bytes held for all neighbours together.
    public var totalBytes: Int
    /// How long an envelope may wait; older ones expire instead of going out late. The default
    /// is the departure grace (30 s) plus the handshake timeout (10 s): what was held when a link
    /// dropped is still there when a neighbour that returned within its grace is ready again.
    public var maxAge: Duration
    /// Envelopes sent on a link within this long before it went down are sent again (or held)
    /// for its neighbour: their frames may have been lost with the link. Zero turns this off.
    public var resendWindow: Duration

    /// Creates limits; the defaults are the documented ones.
    public init(
        messagesPerNeighbour: Int = 64, bytesPerNeighbour: Int = 65_536, totalBytes: Int = 1_048_576,
        maxAge: Duration = .seconds(40), resendWindow: Duration = .seconds(2)
    ) {
        self.messagesPerNeighbour = messagesPerNeighbour
        self.bytesPerNeighbour = bytesPerNeighbour
        self.totalBytes = totalBytes
        self.maxAge = maxAge
        self.resendWindow = resendWindow
    }

    /// Holds nothing and resends nothing: what the node did before holding existed.
    public static let disabled = HoldLimits(
        messagesPerNeighbour: 0, bytesPerNeighbour: 0, totalBytes: 0, maxAge: .zero, resendWindow: .zero)
}
