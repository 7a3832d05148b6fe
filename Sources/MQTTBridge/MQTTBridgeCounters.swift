/// The bridge's counters (`relayctl stats`' `mqtt` group; docs/CONTROL.md, "Counter groups").
public struct MQTTBridgeCounters: Equatable, Sendable {
    /// Envelopes handed to libmosquitto for the broker.
    public var published: UInt64 = 0
    /// Publishes libmosquitto refused (the envelope went back to the queue's head).
    public var publishFailures: UInt64 = 0
    /// Messages the broker delivered to this gateway.
    public var received: UInt64 = 0
    /// Of those, handed to the engine (it then checks them as from a radio neighbour).
    public var admitted: UInt64 = 0
    /// Refused: longer than the payload bound.
    public var droppedOversized: UInt64 = 0
    /// Refused: a topic outside this mesh's forms.
    public var droppedBadTopic: UInt64 = 0
    /// Refused: not an envelope.
    public var droppedMalformed: UInt64 = 0
    /// Refused: kind or destination disagrees with the topic.
    public var droppedTopicMismatch: UInt64 = 0
    /// Refused: the publishing gateway spent its share.
    public var droppedOverGatewayShare: UInt64 = 0
    /// Refused: all gateways together spent the total.
    public var droppedOverTotal: UInt64 = 0
    /// Refused: the engine's bridge inbox was full.
    public var droppedInboxFull: UInt64 = 0
    /// Uplink envelopes dropped, oldest first, because the queue was full.
    public var droppedQueueFull: UInt64 = 0
    /// Key requests and answers not published because the broker was unreachable (never queued).
    public var droppedLookupOffline: UInt64 = 0
    /// Envelopes waiting for the broker now.
    public var queueDepth: UInt64 = 0
    /// Publishing gateways with a share of their own now (at most 64).
    public var gatewayShares: UInt64 = 0
    /// Shares an idle gateway (nothing for 10 min) gave up to a gateway heard later.
    public var gatewaySharesReleased: UInt64 = 0
    /// Connections made (the first one included).
    public var connects: UInt64 = 0
    /// Connections lost or attempts failed, each followed by a wait and a new attempt.
    public var reconnects: UInt64 = 0

    /// Creates zeroed counters.
    public init() {}

    /// Copies the gate's refusals in.
    mutating func record(_ admission: DownlinkAdmission) {
        admitted = admission.admitted
        gatewayShares = UInt64(admission.gatewayCount)
        gatewaySharesReleased = admission.idleReleased
        droppedOversized = admission.dropped[.oversized] ?? 0
        droppedBadTopic = admission.dropped[.badTopic] ?? 0
        droppedMalformed = admission.dropped[.malformed] ?? 0
        droppedTopicMismatch = admission.dropped[.topicMismatch] ?? 0
        droppedOverGatewayShare = admission.dropped[.overGatewayShare] ?? 0
        droppedOverTotal = admission.dropped[.overTotal] ?? 0
        droppedInboxFull = admission.dropped[.inboxFull] ?? 0
    }
}
