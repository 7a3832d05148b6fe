import MeshProtocol

/// `[hold]` settings: messages held for a neighbour in its departure grace (docs/PROTOCOL.md
/// Part E). The defaults are `HoldLimits()`'s, written once there.
public struct HoldSettings: Equatable, Sendable {
    /// The most envelopes held for one neighbour.
    public var messages = HoldLimits().messagesPerNeighbour
    /// The most bytes held for one neighbour.
    public var bytes = HoldLimits().bytesPerNeighbour
    /// The most bytes held for all neighbours together.
    public var totalBytes = HoldLimits().totalBytes
    /// How long an envelope may be held.
    public var maxAge = HoldLimits().maxAge
    /// Sends on a link this recent when it goes down are sent again.
    public var resendWindow = HoldLimits().resendWindow

    /// Creates the defaults.
    public init() {}
}
