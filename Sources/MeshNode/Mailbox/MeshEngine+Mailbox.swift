import Flooding
import MeshLink
import MeshProtocol

extension MeshEngine {
    /// How far `node` is from this node now (PROTOCOL.md Part G, "Unreachable"). A node last
    /// heard straight over its own link is not heard once it is no longer a neighbour: it left.
    public func reach(of node: NodeID, now: Duration) -> MailboxReach {
        if let entry = neighbours.table.neighbours[node], neighbours.profile(of: node) != nil {
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
        guard let recipient = envelope.destination, let link = neighbours.bestLink(to: recipient) else { return nil }
        guard sendSealed(mailboxCopy(of: envelope), on: link, now: now) else {
            _ = takeActions()
            return nil
        }
        kindCounters[.message].relayed += 1
        return (link, takeActions())
    }

    /// True while `link` is one of `node`'s links: what a hand-over sent on it was not lost with it.
    public func isLink(_ link: LinkID, of node: NodeID) -> Bool { neighbours.isLink(link, of: node) }

    /// Sends a copy of a held message toward a recipient heard some hops away: the same copy as
    /// `handOver`, to every ready neighbour (its origin too: it passes the copy to the recipient
    /// when that is its neighbour, "Back at its origin").
    public func sendMailboxCopy(_ envelope: Envelope, now: Duration) -> [EngineAction] {
        let copy = mailboxCopy(of: envelope)
        let encoded = copy.encoded()
        var count = 0
        for neighbour in readyNeighbours() {
            if let link = neighbours.bestLink(to: neighbour), sendSealed(copy, on: link, now: now, encoded: encoded) { count += 1 }
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
        guard mailbox.passBack(envelope.messageID) else { return }
        if sendEnvelope(mailboxCopy(of: envelope), to: recipient, now: now) { kindCounters[.message].sent += 1 }
    }

    /// Offers an accepted direct message to the mailbox when its recipient is unreachable.
    func offerToMailbox(_ envelope: Envelope, depositor: NodeID, now: Duration) -> Bool {
        guard let deposit = mailbox.deposit(envelope, depositor: depositor, localNode: nodeID, reach: { reach(of: $0, now: now) })
        else { return false }
        actions.append(deposit)
        return true
    }

    /// Offers what was held for a neighbour that departed to the mailbox: the direct messages
    /// addressed to that neighbour itself.
    func offerHeldToMailbox(_ envelopes: [Envelope], departed node: NodeID) {
        actions.append(contentsOf: mailbox.deposits(ofHeld: envelopes, departed: node, localNode: nodeID))
    }

    /// Refills the memory of direct messages delivered here (Part G) from the disk.
    public func restoreDeliveries(_ records: [(MessageID, UInt64)], vouchedSince: UInt64, now: Duration) {
        mailbox.restore(records, vouchedSince: vouchedSince, meshNow: timestamp(at: now))
    }

    /// The memory of direct messages delivered here.
    public var deliveryMemory: DirectDeliveryMemory { mailbox.deliveries }

    /// Part G's step 4 for a direct message that failed the seen cache's freshness
    /// (``MailboxPolicy/isFreshHeld(_:localNode:meshNow:)``).
    func isFreshHeldMessage(_ envelope: Envelope, now: Duration) -> Bool {
        mailbox.isFreshHeld(envelope, localNode: nodeID, meshNow: timestamp(at: now))
    }
}

extension MeshEngine {
    /// Mesh time at engine time `now`, milliseconds since the Unix epoch (Part C, "Mesh time").
    public func meshTime(at now: Duration) -> UInt64 { timestamp(at: now) }
}
