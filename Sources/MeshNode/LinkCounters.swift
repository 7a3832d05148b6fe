/// Counters of links, handshakes and link seals.
public struct LinkCounters: Equatable, Sendable {
    /// Links that came up.
    public var linksUp: UInt64 = 0
    /// Links that went down.
    public var linksDown: UInt64 = 0
    /// Key exchanges completed.
    public var keyExchanges: UInt64 = 0
    /// Key exchange messages that failed to decode or verify.
    public var keyExchangeFailures: UInt64 = 0
    /// Handshake steps sent again because the link was still not ready after the guard interval.
    public var handshakeRetries: UInt64 = 0
    /// Links closed because no valid profile came within the handshake timeout.
    public var handshakeTimeouts: UInt64 = 0
    /// Neighbours that departed after their grace.
    public var departures: UInt64 = 0
    /// Links refused by the allow or deny list.
    public var refused: UInt64 = 0
    /// Link packets that failed to open (wrong key, altered bytes).
    public var sealFailures: UInt64 = 0
    /// Link packets dropped as replays.
    public var replays: UInt64 = 0
    /// Frames reported on a link the engine does not know (never up, or already down).
    public var unknownLinkFrames: UInt64 = 0
    /// Reassembled messages of a kind this version does not know.
    public var unknownKinds: UInt64 = 0
    /// Frames that arrived before the link had keys.
    public var unkeyedFrames: UInt64 = 0
    /// Frames the transport would not take (queue full or link gone).
    public var sendFailures: UInt64 = 0
    /// Messages that could not be split for a link's MTU.
    public var splitFailures: UInt64 = 0
    /// Direct messages that could not be opened at their destination.
    public var innerSealFailures: UInt64 = 0
    /// Re-keys started because a key reached its message count or age.
    public var rekeys: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
