import MeshCrypto
import MeshLink
import MeshProtocol

/// The link acknowledgement and credit (docs/PROTOCOL.md D12): the engine's side of ``LinkDelivery``.
extension MeshEngine {
    /// Sends an acknowledgement of what this end accepted on `link` under the current keys, with
    /// this node's credit. The first one on a link announces that this node acknowledges. It is an
    /// opaque packet (PROTOCOL.md D14) when the peer sends those, or when `opaque` (the announcement).
    func sendAcknowledgement(on link: LinkID, now: Duration, opaque: Bool = false) {
        guard configuration.linkDelivery.acknowledges else { return }
        let messageID = newMessageID()
        let credit = UInt16(clamping: configuration.linkDelivery.credit)
        let sealed: (packet: [UInt8], frameKind: UInt8)?
        do {
            sealed = try links.withLink(link) { (state) throws(CryptoError) in
                try state.withKeyed { (keyed) throws(CryptoError) in
                    let accepted = keyed.session.acceptedCounters
                    let body = LinkAcknowledgementBody(highest: accepted.highest, received: accepted.received, credit: credit)
                    if opaque || (configuration.opaquePackets && keyed.peerSendsOpaque) {
                        return (try keyed.sealOpaque(kind: LinkAcknowledgementBody.frameKind, plaintext: body.encoded()),
                                LinkSession.opaqueFrameKind)
                    }
                    return (try keyed.session.seal(
                        frameKind: LinkAcknowledgementBody.frameKind, messageID: messageID, plaintext: body.encoded()),
                            LinkAcknowledgementBody.frameKind)
                }
            } ?? nil
        } catch {
            links.increment(\.sealFailures)
            return
        }
        guard let (packet, frameKind) = sealed else { return }
        links.withLink(link) { $0.delivery.acknowledgementSent() }
        if sendFrames(of: packet, kindByte: frameKind, on: link, now: now, noting: (LinkAcknowledgementBody.frameKind, nil)) {
            links.increment(\.acknowledgementsSent)
        }
    }

    /// An acknowledgement arrived on `link`: what it confirms is done, what it shows lost goes again,
    /// what waited for credit goes as far as the new credit allows.
    func receiveAcknowledgement(_ packet: [UInt8], on link: LinkID, now: Duration) {
        let opened: (plaintext: [UInt8], previousKeys: Bool, sealedUpTo: UInt64, neighbour: NodeID)?
        do {
            opened = try links.withLink(link) { (state) throws(CryptoError) in
                try state.withKeyed { (keyed) throws(CryptoError) in
                    let opened = try keyed.session.open(frameKind: LinkAcknowledgementBody.frameKind, packet: packet)
                    return (opened.plaintext, keyed.session.lastOpenUsedPreviousKey, keyed.session.lastSealedCounter, keyed.neighbour)
                }
            } ?? nil
        } catch {
            linkSealFailed(error, kind: nil, on: link)
            return
        }
        guard let opened else {
            unkeyedPacket(kind: nil, on: link, now: now)
            return
        }
        handleAcknowledgement(
            opened.plaintext, previousKeys: opened.previousKeys, sealedUpTo: opened.sealedUpTo, from: opened.neighbour,
            on: link, now: now)
    }

    /// An opened acknowledgement body, in either form: `previousKeys` when the keys before a
    /// re-key opened it, `sealedUpTo` the last counter this end sealed.
    func handleAcknowledgement(
        _ plaintext: [UInt8], previousKeys: Bool, sealedUpTo: UInt64, from neighbour: NodeID, on link: LinkID, now: Duration
    ) {
        let opened = (plaintext: plaintext, previousKeys: previousKeys, sealedUpTo: sealedUpTo, neighbour: neighbour)
        let body: LinkAcknowledgementBody
        do {
            body = try LinkAcknowledgementBody(decoding: opened.plaintext)
            // An acknowledgement of counters never sealed here is a broken peer's.
            guard opened.previousKeys || body.highest <= opened.sealedUpTo else {
                throw WireError.invalidField("acknowledgement names counter \(body.highest), sealed only up to \(opened.sealedUpTo)")
            }
        } catch {
            links.increment(\.acknowledgementsMalformed)
            emit(.dropped(nil, kind: nil, cause: .acknowledgement("\(error)"), link: link))
            return
        }
        links.increment(\.acknowledgementsReceived)
        neighbours.heard(opened.neighbour, now: now)
        // Counters of the keys before a re-key: what they carried was sent again under the new keys.
        guard !opened.previousKeys else { return }
        let announced = links[link]?.delivery.peerAcknowledges == false
        guard let release = links.withLink(link, { $0.delivery.receive(body, now: now) }) else { return }
        // The peer's first acknowledgement: answer it, so a peer whose announcement of ours was
        // lost learns that this end acknowledges too.
        if announced { sendAcknowledgement(on: link, now: now) }
        perform(release, on: link, now: now)
    }

    /// Sends what a ``LinkDelivery/Release`` asks for on `link`.
    func perform(_ release: LinkDelivery.Release, on link: LinkID, now: Duration) {
        links.increment(\.acknowledged, by: UInt64(release.acknowledged))
        links.increment(\.acknowledgementTimeouts, by: UInt64(release.timedOut))
        links.increment(\.givenUp, by: UInt64(release.gaveUp.count))
        for resend in release.resend {
            links.increment(\.resent)
            sendSealed(resend.envelope, on: link, now: now, attempt: resend.attempt, bypassingCredit: true)
        }
        for envelope in release.send {
            sendSealed(envelope, on: link, now: now, bypassingCredit: true)
        }
    }

    /// A data packet from the peer opened on `link`: acknowledged at once every
    /// `acknowledgeEvery` packets, else at the next tick.
    func acceptedPacket(on link: LinkID, now: Duration) {
        if links.withLink(link, { $0.delivery.accepted() }) == true { sendAcknowledgement(on: link, now: now) }
    }

    /// Keys changed on `link`: what the old keys carried unacknowledged goes again under the new ones.
    func resendAfterRekey(on link: LinkID, now: Duration) {
        guard let resend = links.withLink(link, { $0.delivery.rekeyed() }) else { return }
        for entry in resend {
            links.increment(\.resent)
            sendSealed(entry.envelope, on: link, now: now, attempt: entry.attempt, bypassingCredit: true)
        }
    }

    /// Every tick: acknowledgements owed, resends of what timed out, and peers that never acknowledged.
    func runLinkDelivery(now: Duration) {
        let acknowledges = configuration.linkDelivery.acknowledges
        let unacknowledgedAfter = configuration.linkDelivery.unacknowledgedAfter
        for link in links.sortedIDs {
            // What this tick needs of the link, read where its state lives (a copy of the state per
            // link and tick was a tenth of a simulated mesh's time).
            let due: LinkDeliveryDue?? = links.withLink(link) { (state: inout LinkState) -> LinkDeliveryDue? in
                guard let neighbour = state.neighbour else { return nil }
                let unacknowledged = state.phase == .ready && acknowledges && !state.delivery.peerAcknowledges
                    && !state.delivery.reportedUnacknowledged && now - (state.readyAt ?? state.openedAt) >= unacknowledgedAfter
                return LinkDeliveryDue(neighbour: neighbour, acknowledgement: state.delivery.acknowledgementDue, unacknowledged: unacknowledged)
            }
            guard let due = due ?? nil else { continue }
            let neighbour = due.neighbour
            if due.acknowledgement { sendAcknowledgement(on: link, now: now) }
            if let release = links.withLink(link, { $0.delivery.tick(now: now) }), release != LinkDelivery.Release() {
                perform(release, on: link, now: now)
            }
            if due.unacknowledged {
                links.withLink(link) { $0.delivery.reportedUnacknowledged = true }
                links.increment(\.unacknowledgedPeers)
                emit(.linkUnacknowledged(link, neighbour: neighbour))
            }
        }
    }
}

/// What one tick of link delivery does on a link with a neighbour.
private struct LinkDeliveryDue {
    let neighbour: NodeID
    /// An acknowledgement is due.
    let acknowledgement: Bool
    /// The link is ready and the peer never acknowledged within `unacknowledged_after`, not yet reported.
    let unacknowledged: Bool
}
