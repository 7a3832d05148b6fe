import Flooding
import MeshLink
import MeshProtocol

extension MeshEngine {
    /// How far `node` is from this node now (PROTOCOL.md Part G, "Unreachable"). A node last
    /// heard straight over its own link is not heard once it is no longer a neighbour: it left.
    public func reach(of node: NodeID, now: Duration) -> MailboxReach {
        if let entry = neighbourTable.neighbours[node], profiles[node] != nil {
            return entry.links.isEmpty ? .inGrace : .linked
        }
        if let known = knownNodes.entries[node], known.via != node, now - known.lastHeard < configuration.mailReachWindow {
            return .heard(hops: known.hops)
        }
        return .unreachable
    }

    /// Hands a held message to its recipient over the recipient's own link (Part G, "Hand-over"):
    /// the copy carries hops 1 and route `[origin, this node]` (hops 0, `[this node]` for our own).
    /// Returns the link it goes on and the frames' actions, or nil when the recipient has no ready link.
    public func handOver(_ envelope: Envelope, now: Duration) -> (link: LinkID, actions: [EngineAction])? {
        guard let recipient = envelope.destination, let link = neighbourTable.bestLink(to: recipient) else { return nil }
        guard sendSealed(mailboxCopy(of: envelope), on: link, now: now) else {
            _ = takeActions()
            return nil
        }
        kindCounters[.message].relayed += 1
        return (link, takeActions())
    }

    /// True while `link` is one of `node`'s links: what a hand-over sent on it was not lost with it.
    public func isLink(_ link: LinkID, of node: NodeID) -> Bool { neighbourTable.neighbours[node]?.links[link] != nil }

    /// Sends a copy of a held message toward a recipient heard some hops away: the same copy as
    /// `handOver`, to every ready neighbour (its origin too: it passes the copy to the recipient
    /// when that is its neighbour, "Back at its origin").
    public func sendMailboxCopy(_ envelope: Envelope, now: Duration) -> [EngineAction] {
        let copy = mailboxCopy(of: envelope)
        let encoded = copy.encoded()
        var count = 0
        for neighbour in readyNeighbours() {
            if let link = neighbourTable.bestLink(to: neighbour), sendSealed(copy, on: link, now: now, encoded: encoded) { count += 1 }
        }
        kindCounters[.message].relayed += UInt64(count)
        return takeActions()
    }

    /// The copy a mailbox sends: the sealed, signed message with its route cut to what this
    /// node can vouch for (hops and route are not signed, A1).
    func mailboxCopy(of envelope: Envelope) -> Envelope { envelope.handedOver(byMailbox: nodeID) }

    /// Part G, "Back at its origin": a mailbox's copy of a direct message this node wrote, for a
    /// recipient that is now its ready neighbour, goes to that neighbour as this node's own
    /// (hops 0, route `[this node]`), once per message ID. The copy itself is still dropped as looped.
    func passOwnHeldMessage(_ envelope: Envelope, now: Duration) {
        guard envelope.origin == nodeID, envelope.kind == .message, envelope.isInnerSealed,
            let recipient = envelope.destination, reach(of: recipient, now: now) == .linked
        else { return }
        if passedBack.count >= Self.passedBackCapacity { passedBack.removeAll(keepingCapacity: true) }
        guard passedBack.insert(envelope.messageID).inserted else { return }
        if sendEnvelope(mailboxCopy(of: envelope), to: recipient, now: now) { kindCounters[.message].sent += 1 }
    }

    /// The most message IDs `passOwnHeldMessage` remembers (forgotten all at once when full).
    static let passedBackCapacity = 4_096

    /// Offers an accepted direct message to the mailbox when its recipient is unreachable.
    func offerToMailbox(_ envelope: Envelope, depositor: NodeID, now: Duration) -> Bool {
        guard configuration.keepsMail, envelope.kind == .message, envelope.isInnerSealed,
            let recipient = envelope.destination, recipient != nodeID, reach(of: recipient, now: now) == .unreachable
        else { return false }
        actions.append(.deposit(envelope, depositor: depositor))
        return true
    }

    /// Offers what was held for a neighbour that departed to the mailbox: the direct messages
    /// addressed to that neighbour itself.
    func offerHeldToMailbox(_ envelopes: [Envelope], departed node: NodeID) {
        guard configuration.keepsMail else { return }
        for envelope in envelopes where envelope.kind == .message && envelope.isInnerSealed && envelope.destination == node {
            let route = envelope.route
            let depositor = route.count >= 2 && route.last == nodeID ? route[route.count - 2] : nodeID
            actions.append(.deposit(envelope, depositor: depositor))
        }
    }

    /// Refills the memory of direct messages delivered here (Part G) from the disk.
    public func restoreDeliveries(_ records: [(MessageID, UInt64)], vouchedSince: UInt64, now: Duration) {
        deliveries = DirectDeliveryMemory(
            capacity: deliveries.capacity, horizonMilliseconds: deliveries.horizonMilliseconds,
            skewMilliseconds: deliveries.skewMilliseconds, vouchedSince: vouchedSince)
        deliveries.restore(records, now: timestamp(at: now))
    }

    /// The memory of direct messages delivered here.
    public var deliveryMemory: DirectDeliveryMemory { deliveries }

    /// Part G's step 4 for a direct message that failed the seen cache's freshness: for another
    /// node, within the horizon; for us, within what the delivery memory vouches for.
    func isFreshHeldMessage(_ envelope: Envelope, now: Duration) -> Bool {
        guard envelope.kind == .message, envelope.isInnerSealed, let destination = envelope.destination,
            configuration.freshness.enabled
        else { return false }
        let meshNow = timestamp(at: now)
        if destination == nodeID {
            deliveries.vouchAtMost(meshNow)
            return deliveries.accepts(timestamp: envelope.timestamp, now: meshNow)
        }
        return deliveries.withinHorizon(timestamp: envelope.timestamp, now: meshNow)
    }
}

extension MeshEngine {
    /// Mesh time at engine time `now`, milliseconds since the Unix epoch (Part C, "Mesh time").
    public func meshTime(at now: Duration) -> UInt64 { timestamp(at: now) }
}
