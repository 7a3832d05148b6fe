import Mailbox
import MeshLink
import MeshNode
import MeshProtocol

extension NodeRuntime {
    /// Ticks (250 ms each) between two expiry passes over the mailbox.
    static let mailboxExpiryTicks = 240

    /// Offers a direct message for an unreachable recipient to the mailbox; logs what became of it.
    func deposit(_ envelope: Envelope, depositor: NodeID) {
        guard let mailbox, let recipient = envelope.destination else { return }
        let admission = mailbox.deposit(
            envelope.encoded(), messageID: envelope.messageID, recipient: recipient, origin: envelope.origin,
            depositor: depositor, timestamp: envelope.timestamp, now: engine.meshTime(at: now))
        switch admission {
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

    /// Remembers a direct message delivered here until no copy of it can be accepted (Part G).
    func recordDirectDelivery(_ message: DeliveredMessage) {
        guard let mailbox, message.destination != nil else { return }
        mailbox.recordDelivered(message.messageID, expiresAt: engine.deliveryMemory.expiry(ofTimestamp: message.timestamp))
    }

    /// Once per tick: hands held mail to recipients that are back, sends copies toward those
    /// heard some hops away, expires old mail now and then, and commits what changed in one
    /// transaction.
    func runMailbox() {
        guard let mailbox else { return }
        let meshNow = engine.meshTime(at: now)
        mailboxTicks += 1
        if mailboxTicks >= Self.mailboxExpiryTicks {
            mailboxTicks = 0
            let before = mailbox.index.counters[.expired]
            mailbox.expire(now: meshNow)
            let expired = mailbox.index.counters[.expired] - before
            if expired > 0 { logger.info(.mailbox, "\(expired) held message(s) expired unclaimed", LogFields(reason: "expired")) }
        }
        for recipient in mailbox.index.recipients {
            switch engine.reach(of: recipient, now: now) {
            case .linked:
                handOver(to: recipient, mailbox: mailbox)
            case .heard:
                for entry in mailbox.copiesDue(for: recipient, now: meshNow) {
                    guard let envelope = heldEnvelope(entry.messageID, mailbox: mailbox) else { continue }
                    perform(engine.sendMailboxCopy(envelope, now: now))
                }
            case .inGrace, .unreachable:
                continue
            }
        }
        flushMailbox()
    }

    /// Sends the next batch of held mail to a recipient on its own link; a message leaves the
    /// mailbox only when the transport took every frame of it.
    private func handOver(to recipient: NodeID, mailbox: MailboxStore) {
        var delivered = 0
        for entry in mailbox.index.handOverBatch(for: recipient) {
            guard let envelope = heldEnvelope(entry.messageID, mailbox: mailbox),
                let actions = engine.handOver(envelope, now: now)
            else { break }
            var taken = true
            for action in actions {
                guard case .send(let frame, let link) = action else { continue }
                let outcome = transport.send(frame, on: link)
                engine.recordSendFailure(outcome, on: link)
                if outcome != .sent { taken = false }
            }
            guard taken else { break }
            mailbox.handedOver(entry.messageID)
            delivered += 1
        }
        if delivered > 0 {
            logger.info(.mailbox, "handed \(delivered) held message(s) to \(recipient.shortID)",
                        LogFields(otherNode: recipient, reason: "delivered"))
        }
    }

    /// A held envelope, decoded; one that cannot be read or decoded is discarded and counted.
    private func heldEnvelope(_ id: MessageID, mailbox: MailboxStore) -> Envelope? {
        guard let bytes = mailbox.envelope(for: id), let envelope = try? Envelope(decoding: bytes) else {
            mailbox.discard(id)
            return nil
        }
        return envelope
    }

    /// Commits the mailbox's pending changes; a failure is logged (changes stay pending).
    func flushMailbox() {
        guard let mailbox, mailbox.hasPendingWrites else { return }
        if !mailbox.flush() {
            logger.warning(.mailbox, "mailbox database write failed; retrying at the next tick", LogFields(reason: "store_error"))
        }
    }
}
