import Mailbox
import MeshLink
import MeshNode
import MeshProtocol

/// What a node does with its mailbox, the same in meshnoded and the simulator: it takes the
/// engine's deposits, remembers direct messages delivered here (PROTOCOL.md Part G), and on
/// every tick hands held mail to recipients that are back, sends copies toward recipients heard
/// some hops away, sends this node's own messages whose key became known and looks keys up again
/// on their schedule, expires old mail once a minute and commits what changed in one transaction.
/// Owned by the engine's owner, on the engine's thread. It never calls the transport: what it
/// sends it hands to its owner as the engine's actions (`perform`), as the engine itself does.
public final class MailboxCourier {
    /// Mesh time between two expiry passes, in milliseconds.
    public static let expiryInterval: UInt64 = 60_000
    /// The store.
    public let store: MailboxStore
    private var lastExpiry: UInt64?
    private var ledger = HandOverLedger()

    /// Creates a courier over an open store.
    public init(store: MailboxStore) { self.store = store }

    /// Offers a deposit the engine asked for (``EngineAction/deposit(_:depositor:)``).
    public func deposit(_ envelope: Envelope, depositor: NodeID, meshNow: UInt64) -> MailboxAdmission {
        guard let recipient = envelope.destination else { return .refused(.refusedTooLarge) }
        return store.deposit(
            envelope.encoded(), messageID: envelope.messageID, recipient: recipient, origin: envelope.origin,
            depositor: depositor, timestamp: envelope.timestamp, now: meshNow)
    }

    /// Keeps the ID of a direct message delivered here until mesh time `expiresAt`, when no copy
    /// of it can be accepted any more (``EngineAction/rememberDelivery(_:until:)``).
    public func rememberDelivery(_ id: MessageID, until expiresAt: UInt64) {
        store.recordDelivered(id, expiresAt: expiresAt)
    }

    /// One tick. `perform` performs engine actions in order, as the owner performs any other,
    /// and says whether the transport took every frame among them (a hand-over counts only then).
    public func tick(engine: MeshEngine, now: Duration, perform: ([EngineAction]) -> Bool) -> MailboxTickOutcome {
        var outcome = MailboxTickOutcome()
        let meshNow = engine.meshTime(at: now)
        if lastExpiry.map({ meshNow &- $0 >= Self.expiryInterval }) ?? true {
            lastExpiry = meshNow
            let before = store.index.counters[.expired]
            let waitingBefore = store.keyWait.counters.expired
            store.expire(now: meshNow)
            outcome.expired = Int(store.index.counters[.expired] - before)
            outcome.expiredWaitingForKey = Int(store.keyWait.counters.expired - waitingBefore)
        }
        sendWaitingForKey(engine: engine, now: now, meshNow: meshNow, outcome: &outcome, perform: perform)
        for recipient in store.index.recipients {
            for id in ledger.settle(recipient: recipient, now: meshNow, isUp: { engine.isLink($0, of: recipient) }) {
                store.handedOver(id)
            }
            switch engine.reach(of: recipient, now: now) {
            case .linked:
                let sent = handOver(to: recipient, engine: engine, now: now, meshNow: meshNow, perform: perform)
                if !sent.isEmpty { outcome.handedOver[recipient] = sent }
            case .heard:
                for entry in store.copiesDue(for: recipient, now: meshNow) {
                    guard let envelope = heldEnvelope(entry.messageID) else { continue }
                    _ = perform(engine.sendMailboxCopy(envelope, now: now))
                    outcome.copies += 1
                }
            case .inGrace, .unreachable:
                continue
            }
        }
        ledger.prune { store.index.entries[$0] != nil }
        commit(engine: engine)
        return outcome
    }

    /// Commits what changed in one transaction, with the delivery memory's `vouchedSince` as the
    /// engine has it now, so a restart does not lower or raise it again (PROTOCOL.md G4).
    @discardableResult
    public func commit(engine: MeshEngine) -> Bool {
        store.recordMemorySince(engine.deliveryMemory.vouchedSince)
        return store.flush()
    }

    /// Sends the next batch of held mail to a recipient on its own link, oldest first, leaving out
    /// what was sent and waits for its link (`HandOverLedger`); a message sent whole (the transport
    /// took every frame of it, `perform` says) is removed once its link stayed up `HandOverLedger.confirmAfter`.
    private func handOver(
        to recipient: NodeID, engine: MeshEngine, now: Duration, meshNow: UInt64, perform: ([EngineAction]) -> Bool
    ) -> [MessageID] {
        var sent: [MessageID] = []
        for entry in store.index.handOverBatch(for: recipient, skip: { ledger.isAwaiting($0) }) {
            guard let envelope = heldEnvelope(entry.messageID), let (link, actions) = engine.handOver(envelope, now: now) else { break }
            guard perform(actions) else { break }
            ledger.record(entry.messageID, recipient: recipient, link: link, now: meshNow)
            sent.append(entry.messageID)
        }
        return sent
    }

    /// A held envelope, decoded; one that cannot be read or decoded is discarded.
    private func heldEnvelope(_ id: MessageID) -> Envelope? {
        guard let bytes = store.envelope(for: id), let envelope = try? Envelope(decoding: bytes) else {
            store.discard(id)
            return nil
        }
        return envelope
    }
}
