import Flooding
import MeshProtocol

/// The bridge's first gate for what the broker delivers (docs/PROTOCOL.md Part F, "Receiving"):
/// size, topic, decoding, topic agreement, then the publishing gateway's share and the total.
/// Signature, freshness, seen cache and hop rules follow in the engine, as for a radio neighbour.
///
/// The publishing gateway is the route's last node (the one that appended itself when it
/// published). Anyone with broker credentials may claim any ID there: each claimed ID costs one
/// entry of at most ``DownlinkLimits/maxGateways`` (the rest share one overflow share), and the
/// total bounds them all, so a flood costs the island at most the total budget of engine work.
/// An entry idle for ``DownlinkLimits/gatewayIdleTimeout`` goes to the next new gateway, so IDs
/// claimed once do not keep gateways heard later in the overflow share for good, while a gateway
/// that keeps publishing keeps its share through a flood of new IDs.
public struct DownlinkAdmission: Sendable {
    /// The limits in force.
    public let limits: DownlinkLimits
    /// Admitted envelopes.
    public private(set) var admitted: UInt64 = 0
    /// Refusals by cause.
    public private(set) var dropped: [DownlinkDropCause: UInt64] = [:]
    private let layout: MQTTTopicLayout
    private var gateways: [NodeID: GatewayShare] = [:]
    private var overflow: TokenBucket
    private var total: TokenBucket

    /// Creates the gate for `layout`'s topics with every bucket full at `now`.
    public init(layout: MQTTTopicLayout, limits: DownlinkLimits, now: Duration) {
        self.layout = layout
        self.limits = limits
        overflow = TokenBucket(rate: limits.gatewayMessagesPerSecond, burst: limits.gatewayBurst, now: now)
        total = TokenBucket(rate: limits.totalMessagesPerSecond, burst: limits.totalBurst, now: now)
    }

    /// Gateways with a share of their own.
    public var gatewayCount: Int { gateways.count }
    /// Shares given up by an idle gateway to a new one.
    public private(set) var idleReleased: UInt64 = 0

    /// Decides for one message from the broker and counts the verdict.
    public mutating func admit<Bytes: Collection<UInt8>>(topic: String, payload: Bytes, now: Duration) -> DownlinkVerdict {
        let verdict = decide(topic: topic, payload: payload, now: now)
        switch verdict {
        case .admit: admitted += 1
        case .drop(let cause): count(cause)
        }
        return verdict
    }

    /// Moves one envelope this gate had admitted to the refusals (the engine's inbox was full), so
    /// `admitted` keeps counting only what reached the engine and every message received is
    /// counted once: admitted or dropped by one cause.
    public mutating func refuseAdmitted(_ cause: DownlinkDropCause) {
        if admitted > 0 { admitted -= 1 }
        count(cause)
    }

    private mutating func count(_ cause: DownlinkDropCause) {
        dropped[cause, default: 0] += 1
    }

    private mutating func decide<Bytes: Collection<UInt8>>(topic: String, payload: Bytes, now: Duration) -> DownlinkVerdict {
        guard payload.count <= limits.maxPayloadBytes else { return .drop(.oversized) }
        guard let kind = try? layout.parse(topic) else { return .drop(.badTopic) }
        guard let envelope = try? Envelope(decoding: payload) else { return .drop(.malformed) }
        guard kind.carries(envelope) else { return .drop(.topicMismatch) }
        let gateway = envelope.route.last ?? envelope.origin
        guard takeGatewayToken(gateway, now: now) else { return .drop(.overGatewayShare) }
        guard total.take(1, now: now) else { return .drop(.overTotal) }
        return .admit(envelope)
    }

    private mutating func takeGatewayToken(_ gateway: NodeID, now: Duration) -> Bool {
        if gateways[gateway] == nil {
            if gateways.count >= limits.maxGateways, let idle = longestIdle(now: now) {
                gateways[idle] = nil
                idleReleased += 1
            }
            if gateways.count < limits.maxGateways {
                gateways[gateway] = GatewayShare(
                    bucket: TokenBucket(rate: limits.gatewayMessagesPerSecond, burst: limits.gatewayBurst, now: now), lastSeen: now)
            }
        }
        guard var share = gateways[gateway] else { return overflow.take(1, now: now) }
        let taken = share.bucket.take(1, now: now)
        share.lastSeen = now
        gateways[gateway] = share
        return taken
    }

    /// The gateway heard longest ago, when that is at least the idle timeout ago.
    private func longestIdle(now: Duration) -> NodeID? {
        guard let oldest = gateways.min(by: { $0.value.lastSeen < $1.value.lastSeen }),
              now - oldest.value.lastSeen >= limits.gatewayIdleTimeout
        else { return nil }
        return oldest.key
    }
}

/// One publishing gateway's share and when it last handed something in.
struct GatewayShare: Sendable {
    var bucket: TokenBucket
    var lastSeen: Duration
}
