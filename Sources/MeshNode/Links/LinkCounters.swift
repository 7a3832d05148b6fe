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
    /// Links first keyed with the private key exchange (PROTOCOL.md D3b).
    public var privateLinks: UInt64 = 0
    /// Links first keyed with the signed key exchange of version 1: their identities went in clear.
    public var legacyLinks: UInt64 = 0
    /// Links closed because the neighbour spoke only version 1 and `private_only` is set.
    public var legacyRefused: UInt64 = 0
    /// Identity proofs sent (PROTOCOL.md D3b).
    public var identityProofsSent: UInt64 = 0
    /// Identity proofs received that opened and verified.
    public var identityProofsReceived: UInt64 = 0
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
    /// Frames dropped unread because their link had spent its frame budget (before reassembly and
    /// the link seal).
    public var framesOverBudget: UInt64 = 0
    /// Reassembled messages of a kind this version does not know (also an opaque packet's sealed kind).
    public var unknownKinds: UInt64 = 0
    /// Links whose peer announced opaque link packets (PROTOCOL.md D14).
    public var opaqueLinks: UInt64 = 0
    /// Cover packets sent on opaque links (PROTOCOL.md D14, `[privacy] cover_interval`).
    public var coverSent: UInt64 = 0
    /// Cover packets opened and dropped.
    public var coverReceived: UInt64 = 0
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
    /// Link acknowledgements sent (PROTOCOL.md D12).
    public var acknowledgementsSent: UInt64 = 0
    /// Link acknowledgements received and opened.
    public var acknowledgementsReceived: UInt64 = 0
    /// Link acknowledgements that opened but did not decode, or named counters never sealed.
    public var acknowledgementsMalformed: UInt64 = 0
    /// Packets a peer's acknowledgement confirmed.
    public var acknowledged: UInt64 = 0
    /// Packets sent again on a link: shown lost by an acknowledgement, unacknowledged in time, or
    /// unacknowledged when the keys changed.
    public var resent: UInt64 = 0
    /// Packets whose acknowledgement did not come within the timeout.
    public var acknowledgementTimeouts: UInt64 = 0
    /// Packets given up on a link after every attempt went unacknowledged.
    public var givenUp: UInt64 = 0
    /// Sends that waited for a peer's credit.
    public var creditWaits: UInt64 = 0
    /// Sends refused because the peer's credit was used up and the waiting line was full.
    public var creditRefusals: UInt64 = 0
    /// Unacknowledged packets of a link that went down, sent again or held for the neighbour.
    public var unconfirmedAtLinkDown: UInt64 = 0
    /// Ready links whose peer sent no acknowledgement in time (an older node): delivery not confirmed.
    public var unacknowledgedPeers: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}
}
