/// The bounds of the link acknowledgement and credit (docs/PROTOCOL.md D12).
public struct LinkDeliveryLimits: Equatable, Sendable {
    /// The most packets this node keeps unacknowledged on one link, whatever credit a peer grants.
    public static let maxOutstanding = 256
    /// The longest a sent packet waits for its acknowledgement, however often it was sent.
    public static let longestTimeout: Duration = .seconds(30)

    /// Whether this node takes part at all. Off, it acts as a node of before D12 did: it sends
    /// no acknowledgement and drops the peer's as a frame of an unknown kind (tests and the
    /// simulator use it to stand in for an older node).
    public var acknowledges = true
    /// Data packets accepted from a peer before an acknowledgement goes out at once (else it
    /// goes at the next tick, within 250 ms).
    public var acknowledgeEvery: Int = 8
    /// The credit this node grants each peer: packets it may have sent and not yet seen acknowledged.
    public var credit: Int = 32
    /// How long a tracked packet's first send waits for its acknowledgement before it is sent
    /// again; each later send waits twice as long as the one before, at most `longestTimeout`.
    public var acknowledgementTimeout: Duration = .seconds(3)
    /// Sends of one envelope on one link, the first included, before it is given up on that link.
    public var attempts: Int = 8
    /// Envelopes that may wait for credit on one link; a send beyond it is refused.
    public var waitingLimit: Int = 128
    /// How long a ready link may go without any acknowledgement from its peer before the peer is
    /// reported as one that sends none (an older node): delivery on that link is not confirmed.
    public var unacknowledgedAfter: Duration = .seconds(10)

    /// The defaults above.
    public init() {}
}
