import Flooding
import Fragmenter
import MeshCrypto
import MeshLink
import MeshProtocol

extension MeshEngine {
    /// Originates a chat message: broadcast when `destination` is nil, else a direct message
    /// sealed end to end for it. Returns what became of it; the actions go out with it.
    public func send(
        text: String, to destination: NodeID? = nil, now: Duration
    ) throws(SendFailure) -> (OriginatedMessage, [EngineAction]) {
        try send(text: text, to: destination, messageID: newMessageID(), now: now)
    }

    /// ``send(text:to:now:)`` with the message ID given (one drawn when a message was queued
    /// for a key lookup, or held for its key in the mailbox database).
    public func send(
        text: String, to destination: NodeID?, messageID: MessageID, now: Duration
    ) throws(SendFailure) -> (OriginatedMessage, [EngineAction]) {
        let textLength = text.utf8.count
        guard textLength <= ChatBody.maxTextLength else { throw .textTooLong(textLength) }
        guard destination != nodeID else { throw .destinationIsSelf }
        // With a mailbox a direct message needs no neighbour: it waits here (Part G).
        guard configuration.bridged || !relayTargets().isEmpty || (configuration.keepsMail && destination != nil) else {
            throw .noNeighbours
        }
        let body = ChatBody(
            signingKey: identity.signingPublicKey.compressed, agreementKey: identity.agreementPublicKey.compressed,
            text: text)
        var envelope = Envelope(
            kind: .message, messageID: messageID, origin: nodeID, destination: destination,
            route: [nodeID], timestamp: timestamp(at: now))
        do {
            if let destination {
                guard let key = agreementKey(of: destination) else { throw SendFailure.unknownDestination(destination) }
                envelope.isInnerSealed = true
                envelope.payload = try InnerSeal.seal(
                    body.encoded(), recipientAgreementKey: key, origin: nodeID, destination: destination,
                    messageID: envelope.messageID, kind: .message, padding: configuration.padding ? .buckets : .minimal)
            } else {
                envelope.payload = body.encoded()
            }
            try EnvelopeSigner.sign(&envelope, with: identity)
        } catch let failure as SendFailure {
            throw failure
        } catch {
            throw .crypto("\(error)")
        }
        var outcome = originate(envelope, now: now)
        outcome.offeredToMailbox = offerToMailbox(envelope, depositor: nodeID, now: now)
        return (outcome, takeActions())
    }

    /// The key-agreement key of a neighbour or known node.
    func agreementKey(of node: NodeID) -> P256PublicKey? {
        let bytes = neighbours.profile(of: node)?.agreementKey ?? knownNodes.entries[node]?.agreementKey
        return bytes.flatMap { try? P256PublicKey(x963: $0) }
    }

    /// Sends an envelope this node created to every ready neighbour, and holds it for those
    /// in their departure grace.
    /// With `only`, it goes to that neighbour alone when it is one of them. A gateway also hands it
    /// to the bridge unless `uplinking` is false.
    @discardableResult
    func originate(_ envelope: Envelope, only: NodeID? = nil, uplinking: Bool = true, now: Duration) -> OriginatedMessage {
        router.recordOriginated(envelope.messageID, now: now)
        if uplinking { uplink(envelope, now: now) }
        var outcome = OriginatedMessage(messageID: envelope.messageID, sentTo: 0, heldFor: 0)
        let encoded = envelope.encoded()
        let targets = relayTargets()
        for neighbour in only.flatMap({ targets.contains($0) ? [$0] : nil }) ?? targets {
            switch sendOrHold(envelope, to: neighbour, now: now, encoded: encoded) {
            case .sent:
                kindCounters[envelope.kind].sent += 1
                outcome.sentTo += 1
            case .held:
                outcome.heldFor += 1
            case .notSent:
                break
            }
        }
        return outcome
    }

    /// Neighbours whose profile is verified and that have a live keyed link.
    func readyNeighbours() -> [NodeID] { neighbours.ready() }

    /// How many neighbours `readyNeighbours()` lists (it is asked once per relay, for the
    /// scheduler): kept with the relay targets until the neighbours or profiles change.
    func readyNeighbourCount() -> Int { neighbours.readyCount() }

    /// Neighbours that messages and join notices are addressed to (``Neighbours/relayTargets()``).
    func relayTargets() -> [NodeID] { neighbours.relayTargets() }

    /// Sends an envelope to a neighbour on its best link, or holds it while the neighbour has
    /// no ready link (inside its departure grace).
    /// `encoded` is `envelope.encoded()` when the caller has it (one relay goes to several
    /// neighbours: it is encoded once).
    func sendOrHold(_ envelope: Envelope, to neighbour: NodeID, now: Duration, encoded: [UInt8]? = nil) -> NeighbourDelivery {
        switch neighbours.route(envelope, to: neighbour, now: now) {
        case .link(let link): sendEnvelope(envelope, on: link, now: now, encoded: encoded) ? .sent : .notSent
        case .held: .held
        case .nowhere: .notSent
        }
    }

    /// Sends what was held for `neighbour` now that it has a ready link again.
    func releaseHeld(for neighbour: NodeID, now: Duration) {
        var sent = 0
        for envelope in neighbours.release(for: neighbour, now: now) where sendEnvelope(envelope, to: neighbour, now: now) {
            sent += 1
        }
        neighbours.recordSentLate(sent)
    }

    /// Seals and sends an envelope to a neighbour on its best link; false when it has none.
    @discardableResult
    func sendEnvelope(_ envelope: Envelope, to neighbour: NodeID, now: Duration) -> Bool {
        guard let link = neighbours.bestLink(to: neighbour) else { return false }
        return sendEnvelope(envelope, on: link, now: now)
    }

    /// Seals and sends an envelope on `link` (a neighbour's best link).
    private func sendEnvelope(_ envelope: Envelope, on link: LinkID, now: Duration, encoded: [UInt8]? = nil) -> Bool {
        guard sendSealed(envelope, on: link, now: now, encoded: encoded) else { return false }
        if envelope.kind == .message || envelope.kind == .joinNotice { noteRecentSend(envelope, on: link, now: now) }
        return true
    }

    /// Remembers a send for `HoldLimits.resendWindow`, within the per-neighbour count limit.
    private func noteRecentSend(_ envelope: Envelope, on link: LinkID, now: Duration) {
        let window = configuration.hold.resendWindow
        let limit = configuration.hold.messagesPerNeighbour
        guard window > .zero, limit > 0 else { return }
        // A peer that acknowledges tells exactly what went missing (PROTOCOL.md D12).
        links.withLink(link) { if !$0.delivery.peerAcknowledges { $0.noteRecentSend(envelope, now: now, window: window, limit: limit) } }
    }

    /// Seals an envelope with a link's key and sends its frames. On a link whose peer acknowledges
    /// (PROTOCOL.md D12) the envelope may instead wait for the peer's credit (true: it goes out
    /// when acknowledgements free credit) or be refused (false). `attempt` is 1 for a first send;
    /// `bypassingCredit` sends at once what already waited or is sent again.
    @discardableResult
    func sendSealed(
        _ envelope: Envelope, on link: LinkID, now: Duration, encoded: [UInt8]? = nil, attempt: Int = 1,
        bypassingCredit: Bool = false
    ) -> Bool {
        if !bypassingCredit {
            switch links.withLink(link, { $0.delivery.decide(envelope) }) {
            case nil:
                return false
            case .wait:
                links.increment(\.creditWaits)
                return true
            case .refuse:
                links.increment(\.creditRefusals)
                return false
            case .send:
                break
            }
        }
        // In place: copying the link state out (Dictionary's getter) and back retains each of
        // its references, and mutating the copy copied its replay window and held transfer IDs.
        let sealed: (packet: [UInt8], frameKind: UInt8, counter: UInt64, rekey: Bool)?
        do {
            sealed = try links.withLink(link) { (state) throws(CryptoError) in
                try state.seal(envelope, encoded: encoded ?? envelope.encoded(), opaque: configuration.opaquePackets, now: now)
            } ?? nil
        } catch {
            links.increment(\.sealFailures)
            return false
        }
        guard let (packet, frameKind, counter, rekey) = sealed else { return false }
        let sent = sendFrames(
            of: packet, kindByte: frameKind, on: link, now: now, noting: (envelope.kind.rawValue, envelope.messageID))
        if sent { links.withLink(link) { $0.delivery.sent(envelope, counter: counter, attempt: attempt, now: now) } }
        if rekey {
            links.increment(\.rekeys)
            startKeyExchange(on: link, now: now)
        }
        return sent
    }

    /// Splits a message for the link's current MTU and queues its frames.
    @discardableResult
    func sendFrames(of message: [UInt8], kind: MessageKind, on link: LinkID, now: Duration) -> Bool {
        sendFrames(of: message, kindByte: kind.rawValue, on: link, now: now)
    }

    /// Splits a message with frame kind byte `kindByte` for the link's current MTU and queues its
    /// frames. `noting` is the kind and message ID the transfer carries (sealed inside an opaque
    /// packet), for ``MeshEngine/takeSentTransfers()``; nil: the frame kind, no message ID.
    @discardableResult
    func sendFrames(
        of message: [UInt8], kindByte: UInt8, on link: LinkID, now: Duration, noting: (kind: UInt8, messageID: MessageID?)? = nil
    ) -> Bool {
        let split: SplitMessage
        do {
            // In place (see sendSealed).
            guard let made = try links.withLink(link, { (state) throws(SplitError) in try state.split(message, kindByte: kindByte, now: now) })
            else { return false }
            split = made
        } catch {
            links.increment(\.splitFailures)
            return false
        }
        for frame in split.frames { actions.append(.send(frame, on: link)) }
        if configuration.notesSentTransfers {
            sentTransfers.append(SentTransfer(
                link: link, transferID: split.transferID, kind: noting?.kind ?? kindByte, messageID: noting?.messageID))
        }
        return true
    }

    /// Sends our signed profile on a newly keyed link.
    func sendProfile(on link: LinkID, now: Duration) {
        guard links[link]?.keyed?.profileSent == false else { return }
        var envelope = Envelope(
            kind: .profile, messageID: newMessageID(), origin: nodeID, route: [nodeID], timestamp: timestamp(at: now),
            payload: profile.encoded())
        guard (try? EnvelopeSigner.sign(&envelope, with: identity)) != nil else { return }
        if sendSealed(envelope, on: link, now: now) {
            links.withLink(link) { $0.keyed?.profileSent = true }
            links.withLink(link) { $0.handshakeSentAt = now }
            kindCounters[.profile].sent += 1
        }
    }

    /// Sends our profile again on `link`, at most once per key exchange guard interval.
    func resendProfile(on link: LinkID, now: Duration) {
        guard let state = links[link], state.keyed != nil,
            now - state.handshakeSentAt >= configuration.keyExchangeGuard
        else { return }
        links.withLink(link) { $0.keyed?.profileSent = false }
        sendProfile(on: link, now: now)
    }

    /// Sends our signed join notice to every ready neighbour.
    func sendJoinNotice(now: Duration) {
        var envelope = Envelope(
            kind: .joinNotice, messageID: newMessageID(), origin: nodeID, route: [nodeID],
            timestamp: timestamp(at: now), payload: profile.encoded())
        guard (try? EnvelopeSigner.sign(&envelope, with: identity)) != nil else { return }
        pacing.noticeSent(now: now)
        originate(envelope, now: now)
    }
}
