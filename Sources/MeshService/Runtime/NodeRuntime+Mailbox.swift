import ControlProtocol
import Mailbox
import MailboxCourier
import MeshLink
import MeshNode
import MeshProtocol

extension NodeRuntime {
    /// Offers a direct message for an unreachable recipient to the mailbox; logs what became of it.
    func deposit(_ envelope: Envelope, depositor: NodeID) {
        guard let mailbox = mailboxCourier, let recipient = envelope.destination else { return }
        switch mailbox.deposit(envelope, depositor: depositor, meshNow: engine.meshTime(at: now)) {
        case .held(let evicted):
            logger.info(.mailbox, "held for \(recipient.shortID), who is not in range",
                        LogFields(otherNode: recipient, kind: .message, messageID: envelope.messageID, reason: "deposited"))
            for eviction in evicted {
                logger.info(.mailbox, "evicted from the mailbox", LogFields(messageID: eviction.messageID, reason: eviction.cause.rawValue))
            }
        case .refused(let cause):
            logger.debug(.mailbox, "not held", LogFields(otherNode: recipient, messageID: envelope.messageID, reason: cause.rawValue))
        }
    }

    /// Once per tick: hand-overs, copies, expiry, one commit (`MailboxCourier`).
    func runMailbox() {
        guard let mailbox = mailboxCourier else { return }
        let outcome = mailbox.tick(engine: engine, now: now, perform: { perform($0) })
        for (recipient, sent) in outcome.handedOver {
            logger.info(.mailbox, "handed \(sent.count) held message(s) to \(recipient.shortID)", LogFields(otherNode: recipient, reason: "delivered"))
            for id in sent {
                logger.debug(.mailbox, "held message handed over", LogFields(otherNode: recipient, messageID: id, reason: "handed_over"))
            }
        }
        for (recipient, count) in outcome.sentAfterKey {
            logger.info(.mailbox, "sent \(count) message(s) that waited for the key of \(recipient.shortID)",
                        LogFields(otherNode: recipient, kind: .message, reason: "sent_after_key"))
        }
        if outcome.expiredWaitingForKey > 0 {
            logger.info(.mailbox, "\(outcome.expiredWaitingForKey) message(s) waited the whole retention for a key and were dropped",
                        LogFields(reason: "key_wait_expired"))
        }
        if outcome.expired > 0 {
            logger.info(.mailbox, "\(outcome.expired) held message(s) expired unclaimed", LogFields(reason: "expired"))
        }
        if mailbox.store.hasPendingWrites {
            logger.warning(.mailbox, "mailbox database write failed; retrying at the next tick", LogFields(reason: "store_error"))
        }
    }

    /// Commits the mailbox's pending changes (at a stop).
    func flushMailbox() {
        mailboxCourier?.commit(engine: engine)
    }
}

extension NodeRuntime {
    /// The `mailbox` group of `stats` (CONTROL.md): all zero without a mailbox. Only on `queue`.
    func mailboxCounters() -> [String: UInt64] {
        let store = mailboxCourier?.store
        let counters = store?.index.counters ?? MailboxCounters()
        var group: [String: UInt64] = [
            "deposited": counters.deposited, "delivered": counters.delivered, "copies_sent": counters.copiesSent,
            "commits": counters.commits, "store_errors": counters.storeErrors,
            "held": UInt64(store?.index.count ?? 0), "held_bytes": UInt64(store?.index.totalBytes ?? 0),
            "recipients": UInt64(store?.index.recipients.count ?? 0), "database_bytes": UInt64(store?.databaseBytes ?? 0),
        ]
        for cause in MailboxDropCause.allCases { group[cause.rawValue] = counters[cause] }
        return group
    }

    /// The `outbox` group of `stats` (CONTROL.md): this node's own messages waiting for keys; all
    /// zero without a mailbox. Only on `queue`.
    func outboxCounters() -> [String: UInt64] {
        let queue = mailboxCourier?.store.keyWait
        var group = CounterDictionary.make(from: queue?.counters ?? KeyWaitCounters())
        group["held"] = UInt64(queue?.count ?? 0)
        group["held_bytes"] = UInt64(queue?.totalBytes ?? 0)
        group["targets"] = UInt64(queue?.targets.count ?? 0)
        return group
    }
}

extension NodeRuntime {
    /// Mail held per recipient: count, bytes, age of the oldest; never content.
    public func mailbox() -> MailboxReport {
        queue.sync {
            guard let store = mailboxCourier?.store else {
                return MailboxReport(enabled: false, recipients: [], databaseBytes: 0, waitingMessages: waitingMessages())
            }
            let meshNow = engine.meshTime(at: now)
            let recipients = store.index.summaries().map { summary in
                MailboxReport.Recipient(
                    nodeID: summary.recipient, count: summary.count, bytes: summary.bytes,
                    oldestAgeSeconds: Double(meshNow &- min(meshNow, summary.oldestDepositedAt)) / 1000)
            }
            let waiting = store.keyWait.summaries().map { summary in
                MailboxReport.Recipient(
                    nodeID: summary.target, count: summary.count, bytes: summary.bytes,
                    oldestAgeSeconds: Double(meshNow &- min(meshNow, summary.oldestQueuedAt)) / 1000)
            }
            return MailboxReport(
                enabled: true, recipients: recipients, databaseBytes: store.databaseBytes, waitingForKey: waiting,
                waitingMessages: waitingMessages())
        }
    }

    /// This node's own messages waiting for a key, oldest first: in the mailbox database, then in
    /// memory for a lookup in flight (their age is the lookup's). Only on `queue`.
    func waitingMessages() -> [MailboxReport.WaitingMessage] {
        let meshNow = engine.meshTime(at: now)
        let stored = (mailboxCourier?.store.keyWait.entries.values.sorted { $0.sequence < $1.sequence } ?? []).map { entry in
            MailboxReport.WaitingMessage(
                messageID: entry.messageID, nodeID: entry.target, bytes: entry.size,
                ageSeconds: Double(meshNow &- min(meshNow, entry.queuedAt)) / 1000, stored: true)
        }
        let inMemory = engine.pendingLookups.lookups.values.sorted { $0.started < $1.started }.flatMap { lookup in
            lookup.messages.map { message in
                MailboxReport.WaitingMessage(
                    messageID: message.messageID, nodeID: lookup.target, bytes: message.text.utf8.count,
                    ageSeconds: seconds(now - lookup.started), stored: false)
            }
        }
        return stored + inMemory
    }

    /// Cancels a message of this node's own that waits for a key (`relayctl cancel`): out of the
    /// mailbox database (committed, its text gone from the file and the log) or out of memory.
    public func cancel(_ messageID: MessageID) throws(ControlFailure) -> CancelReport {
        let report: CancelReport? = queue.sync {
            var cancelled: (target: NodeID, bytes: Int)?
            if let entry = mailboxCourier?.store.cancelWaiting(messageID) {
                cancelled = (entry.target, entry.size)
            } else if let (target, message) = engine.cancelWaiting(messageID) {
                cancelled = (target, message.text.utf8.count)
            }
            guard let cancelled else { return nil }
            logger.info(.messageOriginated, "message waiting for a key cancelled by the operator",
                        LogFields(otherNode: cancelled.target, kind: .message, messageID: messageID, reason: "cancelled"))
            return CancelReport(messageID: messageID, nodeID: cancelled.target, bytes: cancelled.bytes)
        }
        guard let report else { throw .unknownMessage(messageID.hex) }
        return report
    }
}
