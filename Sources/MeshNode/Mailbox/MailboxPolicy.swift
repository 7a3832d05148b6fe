import Flooding
import MeshProtocol

/// What this node's mailbox side decides (docs/PROTOCOL.md Part G), as one value that owns its
/// state: the memory of direct messages delivered here, which own messages were passed back to
/// their recipient, and which envelopes are deposited.
struct MailboxPolicy {
    /// The most message IDs ``passBack(_:)`` remembers (forgotten all at once when full).
    static let passedBackCapacity = 4_096

    /// True when this node keeps mail for others.
    let keepsMail: Bool
    /// True when the freshness window applies at all.
    let checksFreshness: Bool
    /// Direct messages delivered here, remembered for the mailbox horizon.
    private(set) var deliveries: DirectDeliveryMemory
    /// Own direct messages a mailbox's copy brought back and this node passed to their recipient.
    private var passedBack: Set<MessageID> = []

    /// Creates the policy of `configuration` for an engine whose clock started at `wallClockAtZero`.
    init(_ configuration: EngineConfiguration, wallClockAtZero: UInt64) {
        keepsMail = configuration.keepsMail
        checksFreshness = configuration.freshness.enabled
        deliveries = DirectDeliveryMemory(
            skewMilliseconds: UInt64(max(0, configuration.freshness.maxClockSkew.components.seconds)) * 1000,
            vouchedSince: wallClockAtZero)
    }

    /// True when a direct message with this ID was delivered here (at mesh time `meshNow`).
    func delivered(_ messageID: MessageID, meshNow: UInt64) -> Bool { deliveries.contains(messageID, now: meshNow) }

    /// Remembers a direct message delivered here; returns the action that keeps it on disk.
    mutating func remember(_ envelope: Envelope, meshNow: UInt64) -> EngineAction {
        deliveries.insert(envelope.messageID, timestamp: envelope.timestamp, now: meshNow)
        return .rememberDelivery(envelope.messageID, until: deliveries.expiry(ofTimestamp: envelope.timestamp))
    }

    /// Part G's step 4 for a direct message that failed the seen cache's freshness: for another
    /// node, within the horizon; for `localNode`, within what the delivery memory vouches for.
    mutating func isFreshHeld(_ envelope: Envelope, localNode: NodeID, meshNow: UInt64) -> Bool {
        guard envelope.kind == .message, envelope.isInnerSealed, let destination = envelope.destination, checksFreshness
        else { return false }
        if destination == localNode {
            deliveries.vouchAtMost(meshNow)
            return deliveries.accepts(timestamp: envelope.timestamp, now: meshNow)
        }
        return deliveries.withinHorizon(timestamp: envelope.timestamp, now: meshNow)
    }

    /// True the first time an own message is passed back to its recipient ("Back at its origin").
    mutating func passBack(_ messageID: MessageID) -> Bool {
        if passedBack.count >= Self.passedBackCapacity { passedBack.removeAll(keepingCapacity: true) }
        return passedBack.insert(messageID).inserted
    }

    /// The deposit of an accepted direct message for another node, when this node keeps mail
    /// and `reach` (asked only then) says its recipient is unreachable; nil otherwise.
    func deposit(
        _ envelope: Envelope, depositor: NodeID, localNode: NodeID, reach: (NodeID) -> MailboxReach
    ) -> EngineAction? {
        guard keepsMail, envelope.kind == .message, envelope.isInnerSealed,
            let recipient = envelope.destination, recipient != localNode, reach(recipient) == .unreachable
        else { return nil }
        return .deposit(envelope, depositor: depositor)
    }

    /// The deposits of what was held for a neighbour that departed: the direct messages
    /// addressed to that neighbour itself.
    func deposits(ofHeld envelopes: [Envelope], departed node: NodeID, localNode: NodeID) -> [EngineAction] {
        guard keepsMail else { return [] }
        return envelopes.filter { $0.kind == .message && $0.isInnerSealed && $0.destination == node }.map { envelope in
            let route = envelope.route
            let depositor = route.count >= 2 && route.last == localNode ? route[route.count - 2] : localNode
            return .deposit(envelope, depositor: depositor)
        }
    }

    /// Refills the delivery memory from the disk.
    mutating func restore(_ records: [(MessageID, UInt64)], vouchedSince: UInt64, meshNow: UInt64) {
        deliveries = DirectDeliveryMemory(
            capacity: deliveries.capacity, horizonMilliseconds: deliveries.horizonMilliseconds,
            skewMilliseconds: deliveries.skewMilliseconds, vouchedSince: vouchedSince)
        deliveries.restore(records, now: meshNow)
    }

    /// Forgets deliveries past the horizon.
    mutating func removeExpired(meshNow: UInt64) { deliveries.removeExpired(now: meshNow) }
}
