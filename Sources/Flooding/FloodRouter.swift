import MeshProtocol

/// The RelayChat flooding rules as a value: seen cache, loop check, per-kind hop limits.
///
/// It never touches a link: callers give it the envelope, the neighbour it came from and
/// the current neighbour set (all as node IDs, one ID space), and act on the decision.
public struct FloodRouter: Sendable {
    /// This node's persistent ID.
    public let localNode: NodeID
    /// The per-kind hop limits.
    public var hopLimits: HopLimits
    /// Message IDs already accepted or originated.
    public private(set) var seen: SeenCache
    /// The fewest hops recent messages arrived with, to relay a copy that comes by a shorter path.
    public private(set) var shorterPaths: ShorterPathMemory
    /// Which signed timestamps the seen cache can vouch for.
    public var freshness: FreshnessRule

    /// Creates a router.
    public init(
        localNode: NodeID, hopLimits: HopLimits = .relayChatDefaults, seen: SeenCache = SeenCache(),
        shorterPaths: ShorterPathMemory = ShorterPathMemory(), freshness: FreshnessRule = FreshnessRule()
    ) {
        self.localNode = localNode
        self.hopLimits = hopLimits
        self.seen = seen
        self.shorterPaths = shorterPaths
        self.freshness = freshness
    }

    /// True when the envelope's signed timestamp lies within what the seen cache can vouch
    /// for at `now` (engine time), judged on `clock`'s mesh time for the local wall clock
    /// `localWall` (milliseconds since the Unix epoch): a copy seen before would still be in the
    /// cache. See ``FreshnessRule`` and ``MeshClock``.
    public func isFresh(_ envelope: Envelope, now: Duration, localWall: UInt64, clock: MeshClock) -> Bool {
        clock.accepts(
            freshness, timestamp: envelope.timestamp, localWall: localWall, vouchedFor: now - seen.vouchedSince(now: now), now: now)
    }

    /// Fills an empty seen cache with the records a node kept across a restart (see
    /// ``SeenCache/restore(_:vouchedSince:now:)``).
    public mutating func restoreSeen(_ records: [SeenCache.Record], vouchedSince: Duration, now: Duration) {
        seen.restore(records, vouchedSince: vouchedSince, now: now)
    }

    /// Keeps every ID the seen cache takes in from now on, for ``takeNewlySeen()``.
    public mutating func keepNewlySeen() {
        seen.keepsNewlyInserted = true
    }

    /// The IDs the seen cache took in since the last call, oldest first.
    public mutating func takeNewlySeen() -> [SeenCache.Record] {
        seen.takeNewlyInserted()
    }

    /// Records a message this node originates, so an echo of it is dropped as seen.
    public mutating func recordOriginated(_ id: MessageID, now: Duration) {
        seen.insert(id, now: now)
    }

    /// The cheap checks alone (route fits the sender, seen, looped, hop limit), changing nothing:
    /// callers run it before expensive signature checks so duplicates cost no public-key work.
    /// A seen ID passes only when this copy came by a shorter path than every copy accepted
    /// before. The route is checked first, so an edited copy of a seen message is refused as
    /// edited, not as seen, and teaches nothing.
    public func precheck(_ envelope: Envelope, from sender: NodeID, now: Duration) -> DropReason? {
        guard envelope.routeFits(handedOverBy: sender) else { return .badRoute }
        if seen.contains(envelope.messageID, now: now),
            !shorterPaths.isShorter(envelope.messageID, hops: envelope.hops, now: now)
        {
            return .seen
        }
        if envelope.origin == localNode || envelope.route.contains(localNode) { return .looped }
        guard hopLimits.accepts(envelope.kind, hops: envelope.hops) else { return .ttlSpent }
        return nil
    }

    /// Applies the rules to an envelope received from neighbour `sender`.
    ///
    /// Order: route fits the sender → seen → looped → hop limit. An accepted envelope's ID enters the seen cache;
    /// a dropped one does not, so a copy that arrives later by a shorter path still counts.
    /// A seen ID whose new copy came by a shorter path than the first is relayed again
    /// (`.shorterPath`) but never delivered twice.
    ///
    /// With `withheld` (the sender was beyond its share) the envelope may be delivered but is
    /// not relayed, and its hops are remembered as the most there can be: any later copy, by a
    /// neighbour within its share, then counts as a shorter path and is relayed after all.
    public mutating func receive(
        _ envelope: Envelope, from sender: NodeID, neighbours: some Collection<NodeID>, now: Duration,
        withheld: Bool = false
    ) -> RelayDecision {
        receive(envelope, from: sender, neighbours: Array(neighbours), now: now, withheld: withheld)
    }

    /// ``receive(_:from:neighbours:now:withheld:)`` for an array of neighbours: not generic, so
    /// the relay path (the engine hands its sorted target list) runs specialized code.
    public mutating func receive(
        _ envelope: Envelope, from sender: NodeID, neighbours: [NodeID], now: Duration, withheld: Bool = false
    ) -> RelayDecision {
        if let reason = precheck(envelope, from: sender, now: now) { return .drop(reason) }
        let firstCopy = seen.insert(envelope.messageID, now: now)
        shorterPaths.record(envelope.messageID, hops: withheld ? .max : envelope.hops, now: now)
        let plan = withheld ? nil : relayPlan(for: envelope, from: sender, neighbours: neighbours)
        guard firstCopy else { return .shorterPath(relay: plan) }
        let deliver = envelope.destination == nil || envelope.destination == localNode
        return .accept(deliver: deliver, relay: plan)
    }

    /// The relay an accepted envelope asks for, if any: hops + 1, our ID on the route, every
    /// neighbour but the sender, the route and the origin.
    private func relayPlan(for envelope: Envelope, from sender: NodeID, neighbours: [NodeID]) -> RelayPlan? {
        guard let relayed = relayCopy(of: envelope) else { return nil }
        // The route holds at most `Envelope.maxRouteLength` IDs: a scan costs less than a set.
        var targets: [NodeID] = []
        targets.reserveCapacity(neighbours.count)
        for neighbour in neighbours where neighbour != sender && neighbour != envelope.origin && !envelope.route.contains(neighbour) {
            targets.append(neighbour)
        }
        guard !targets.isEmpty else { return nil }
        // The engine hands its targets sorted: sort only a list that is not.
        if targets.indices.dropFirst().contains(where: { targets[$0] < targets[$0 - 1] }) { targets.sort() }
        return RelayPlan(envelope: relayed, targets: targets)
    }

    /// The copy this node relays of an accepted envelope (hops + 1, our ID on the route), or nil
    /// when the rules allow no further hop: addressed to us, hop limit spent, or route full.
    public func relayCopy(of envelope: Envelope) -> Envelope? {
        guard envelope.destination != localNode,
            hopLimits.allowsRelay(envelope.kind, receivedHops: envelope.hops),
            envelope.route.count < Envelope.maxRouteLength
        else { return nil }
        var relayed = envelope
        relayed.hops += 1
        relayed.route.append(localNode)
        return relayed
    }
}
