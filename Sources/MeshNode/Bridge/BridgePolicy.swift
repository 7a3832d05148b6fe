import Flooding
import MeshLink
import MeshProtocol

/// What a gateway does at the MQTT bridge (docs/PROTOCOL.md Part F), as one value that owns its
/// state: which kinds go up, the key requests it published (so only answers to them come down),
/// how far a broker copy may have travelled, and its hold of relays of broker copies (F4).
struct BridgePolicy {
    /// True on a gateway: envelopes go up to the broker.
    let bridged: Bool
    /// The most hops a broker copy enters this island with.
    let downlinkHops: UInt8
    /// Relays of broker copies, held before they go to radio neighbours.
    private(set) var relayHold: BridgeRelayHold
    private var publishedRequests = PublishedRequests(capacity: 1024, lifetime: .seconds(30))

    /// Creates the policy of `configuration`.
    init(_ configuration: EngineConfiguration) {
        bridged = configuration.bridged
        downlinkHops = configuration.bridgeDownlinkHops
        relayHold = BridgeRelayHold(hold: configuration.bridgeRelayHold)
    }

    /// The uplink of `envelope`, when this node is a gateway and its kind crosses (messages,
    /// join notices, key requests and answers; PROTOCOL.md F3); nil otherwise. A key request is
    /// remembered, so an answer to it is let in from the broker.
    mutating func uplink(_ envelope: Envelope, now: Duration) -> EngineAction? {
        guard bridged, envelope.kind.isFlooded else { return nil }
        if envelope.kind == .keyRequest {
            guard let body = try? KeyRequestBody(decoding: envelope.payload) else { return nil }
            publishedRequests.record(KeyRequestKey(requester: envelope.origin, tag: body.tag), target: body.target, now: now)
        }
        return .uplink(envelope)
    }

    /// True when `envelope` is a key answer to a request this gateway published within the last
    /// 30 s, about the same target.
    func answersPublishedRequest(_ envelope: Envelope, now: Duration) -> Bool {
        guard let requester = envelope.destination, let body = try? KeyAnswerBody(decoding: envelope.payload) else {
            return false
        }
        return publishedRequests.contains(KeyRequestKey(requester: requester, tag: body.tag), target: body.target, now: now)
    }

    /// `envelope` with at most ``downlinkHops`` hops: the route cut to its origin and its last
    /// entries (the publishing gateway last; with 0, the origin alone, which then counts as the
    /// sender). Hops and route are not signed; a route that does not fit is left as it is, for
    /// the route check to refuse.
    func rebased(_ envelope: Envelope) -> Envelope {
        guard envelope.hops > downlinkHops, let sender = envelope.route.last, envelope.routeFits(handedOverBy: sender) else {
            return envelope
        }
        var rebased = envelope
        rebased.route = [envelope.origin] + envelope.route.suffix(Int(downlinkHops))
        rebased.hops = downlinkHops
        return rebased
    }

    /// A relay to schedule now: a relay of a broker copy is held first (F4), others pass.
    mutating func relay(_ plan: RelayPlan, from source: EnvelopeSource, now: Duration) -> RelayPlan? {
        source == .bridge ? relayHold.hold(plan, now: now) : plan
    }

    /// A radio neighbour's copy of something held: the held relay may be cut or cancelled.
    mutating func heard(_ envelope: Envelope, from sender: NodeID) { relayHold.heard(envelope, from: sender) }

    /// The held relays now due.
    mutating func due(now: Duration) -> [RelayPlan] { relayHold.due(now: now) }
}
