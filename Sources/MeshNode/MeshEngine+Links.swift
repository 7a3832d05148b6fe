import Flooding
import Fragmenter
import MeshCrypto
import MeshLink
import MeshProtocol

extension MeshEngine {
    func linkUp(_ info: LinkInfo, now: Duration) {
        if links[info.id] != nil { linkDown(info.id, now: now) }
        links.increment(\.linksUp)
        guard admit(info, now: now) else { return }
        var handshakeConfiguration = LinkHandshakeConfiguration(
            guardInterval: configuration.keyExchangeGuard, rekeyAfterMessages: configuration.rekeyAfterMessages,
            rekeyInterval: configuration.rekeyInterval)
        handshakeConfiguration.lossless = info.lossless
        handshakeConfiguration.speaksPrivate = configuration.keyExchange != .legacyOnly
        let handshake = LinkHandshake(identity: identity, configuration: handshakeConfiguration)
        let sender = FrameSender(limits: fragmenterLimits, random: SplitMix64(seed: random.next()))
        links.open(LinkState(
            info: info, openedAt: now, handshake: handshake, sender: sender,
            delivery: LinkDelivery(limits: configuration.linkDelivery)))
        if info.mtuSettled || configuration.mtuExchangeWait <= .zero {
            startKeyExchange(on: info.id, now: now)
        } else {
            // Its MTU exchange is still ahead: an opening split for 20-byte frames would be many
            // writes where one does after the exchange.
            links.withLink(info.id) { $0.openingDue = now + configuration.mtuExchangeWait }
        }
    }

    /// A link's largest frame changed. An opening that waited for it goes now.
    func mtuChanged(_ link: LinkID, mtu: Int, now: Duration) {
        guard links[link] != nil else { return }
        links.withLink(link) { $0.info.mtu = mtu }
        if links[link]?.openingDue != nil { startKeyExchange(on: link, now: now) }
    }

    /// Sends the openings whose wait for an MTU exchange is over.
    func sendDueOpenings(now: Duration) {
        for link in links.openingsDue(now: now) { startKeyExchange(on: link, now: now) }
    }

    func linkDown(_ link: LinkID, now: Duration) {
        guard var state = links.remove(link) else { return }
        links.increment(\.linksDown)
        // A peer that acknowledges named what arrived: everything else goes again (PROTOCOL.md
        // D12). Without acknowledgements, what was sent in the last resend window does.
        let recent: [Envelope]
        if state.delivery.peerAcknowledges {
            recent = state.delivery.unconfirmed()
            links.increment(\.unconfirmedAtLinkDown, by: UInt64(recent.count))
        } else {
            recent = state.recentSends.envelopes(sentWithin: configuration.hold.resendWindow, before: now)
        }
        switch neighbours.detach(link, now: now) {
        case .stillLinked(let neighbour), .graceStarted(let neighbour):
            // Frames sent just before the link went may have gone with it: receivers drop
            // duplicates by message ID, so sending them again (or holding them) costs no user a copy.
            var resent = 0
            for envelope in recent where sendOrHold(envelope, to: neighbour, now: now) != .notSent { resent += 1 }
            neighbours.recordResent(resent)
        case .unknownLink:
            break
        }
    }

    /// Starts (or restarts, for a re-key) the key exchange on a link.
    func startKeyExchange(on link: LinkID, now: Duration) {
        guard var state = links[link] else { return }
        state.openingDue = nil
        let message: LinkHandshake.Opening?
        do {
            message = try state.handshake.start(now: now, timestamp: timestamp(at: now))
        } catch {
            links.increment(\.keyExchangeFailures)
            links.update(state)
            return
        }
        links.update(state)
        switch message {
        case .hello(let hello)?: sendHello(hello, on: link, now: now)
        case .legacy(let message)?: sendKeyExchange(message, on: link, now: now)
        case nil: break
        }
    }

    /// Sends a private hello (PROTOCOL.md D3b): the bytes alone, no envelope, nothing that names us.
    func sendHello(_ hello: PrivateHello, on link: LinkID, now: Duration) {
        kindCounters[.keyExchange].sent += 1
        links.withLink(link) { $0.handshakeSentAt = now }
        sendFrames(of: hello.encoded(), kindByte: PrivateHello.frameKind, on: link, now: now)
    }

    /// Sends this node's identity proof for the link's current private pairing.
    func sendIdentityProof(_ proof: [UInt8], on link: LinkID, now: Duration) {
        links.increment(\.identityProofsSent)
        sendFrames(of: proof, kindByte: IdentityProof.frameKind, on: link, now: now)
    }

    func sendKeyExchange(_ message: KeyExchangeMessage, on link: LinkID, now: Duration) {
        let envelope = Envelope(
            kind: .keyExchange, messageID: newMessageID(), origin: nodeID, route: [nodeID],
            timestamp: timestamp(at: now), payload: message.encoded())
        kindCounters[.keyExchange].sent += 1
        links.withLink(link) { $0.handshakeSentAt = now }
        sendFrames(of: envelope.encoded(), kind: .keyExchange, on: link, now: now)
    }

    func frameReceived(_ frame: [UInt8], on link: LinkID, now: Duration) {
        // The frame budget first: a flooding link's frames cost a counter, never a seal opening.
        guard let admitted = links.withLink(link, { $0.frames.admit(at: now, under: configuration.frameBudget) }) else {
            links.increment(\.unknownLinkFrames)
            return
        }
        guard admitted else {
            links.increment(\.framesOverBudget)
            return
        }
        let result: ReassemblyResult
        do {
            result = try links.reassemble(frame, on: link, now: now)
        } catch {
            emit(.dropped(nil, kind: frame.first.flatMap(MessageKind.init(rawValue:)), cause: .fragment("\(error)"), link: link))
            return
        }
        guard case .complete(let kindByte, _, let message) = result else { return }
        if kindByte == LinkSession.opaqueFrameKind, configuration.opaquePackets {
            receiveOpaque(message, on: link, now: now)
            return
        }
        if kindByte == LinkAcknowledgementBody.frameKind, configuration.linkDelivery.acknowledges {
            receiveAcknowledgement(message, on: link, now: now)
            return
        }
        if configuration.keyExchange != .legacyOnly {
            if kindByte == PrivateHello.frameKind {
                receiveHello(message, on: link, now: now)
                return
            }
            if kindByte == IdentityProof.frameKind {
                receiveIdentityProof(message, on: link, now: now)
                return
            }
        }
        guard let kind = MessageKind(rawValue: kindByte) else {
            links.increment(\.unknownKinds)
            emit(.dropped(nil, kind: nil, cause: .unknownKind(kindByte), link: link))
            return
        }
        if kind == .keyExchange {
            receiveKeyExchange(message, on: link, now: now)
        } else {
            receiveSealed(message, kind: kind, on: link, now: now)
        }
    }

    private func receiveHello(_ bytes: [UInt8], on link: LinkID, now: Duration) {
        kindCounters[.keyExchange].received += 1
        guard var state = links[link] else { return }
        do {
            let hello = try PrivateHello(decoding: bytes)
            let (reply, proof) = try state.handshake.receive(hello: hello, now: now)
            // An opening still waiting for the MTU exchange is not needed now: the reply (or
            // this pairing) is this end's half.
            state.openingDue = nil
            links.update(state)
            if let reply { sendHello(reply, on: link, now: now) }
            sendIdentityProof(proof, on: link, now: now)
        } catch {
            keyExchangeFailed(error, on: link, malformed: true)
        }
    }

    private func receiveIdentityProof(_ bytes: [UInt8], on link: LinkID, now: Duration) {
        guard var state = links[link] else { return }
        let keys: LinkKeys
        do {
            keys = try state.handshake.receive(proof: bytes, now: now)
        } catch {
            keyExchangeFailed(error, on: link, malformed: false)
            return
        }
        links.increment(\.identityProofsReceived)
        links.update(state)
        keyed(with: keys, reply: nil, on: link, now: now)
    }

    private func keyExchangeFailed(_ error: any Error, on link: LinkID, malformed: Bool) {
        if malformed { kindCounters[.keyExchange].droppedMalformed += 1 } else { kindCounters[.keyExchange].droppedUnverifiable += 1 }
        links.increment(\.keyExchangeFailures)
        emit(.dropped(nil, kind: .keyExchange, cause: .keyExchange("\(error)"), link: link))
    }

    private func receiveKeyExchange(_ bytes: [UInt8], on link: LinkID, now: Duration) {
        kindCounters[.keyExchange].received += 1
        guard var state = links[link] else { return }
        let message: KeyExchangeMessage
        do {
            let envelope = try Envelope(decoding: bytes)
            guard envelope.kind == .keyExchange, envelope.hops == 0 else { throw WireError.invalidField("kind") }
            message = try KeyExchangeMessage(decoding: envelope.payload)
            guard message.senderNodeID == envelope.origin else { throw CryptoError.originMismatch(origin: envelope.origin, expected: message.senderNodeID) }
        } catch {
            keyExchangeFailed(error, on: link, malformed: true)
            return
        }
        if configuration.keyExchange == .privateOnly {
            // A neighbour of version 1 names itself and us in clear: this node does not answer.
            links.increment(\.legacyRefused)
            emit(.legacyRefused(link, neighbour: message.senderNodeID))
            _ = links.remove(link)
            actions.append(.disconnect(link))
            return
        }
        do {
            let (reply, keys) = try state.handshake.receive(message, now: now, timestamp: timestamp(at: now))
            links.update(state)
            keyed(with: keys, reply: reply, on: link, now: now)
        } catch {
            keyExchangeFailed(error, on: link, malformed: false)
        }
    }

    /// A key exchange produced keys: refuses a neighbour the lists do not permit, else keys the
    /// link (first keys) or re-keys it.
    private func keyed(with keys: LinkKeys, reply: KeyExchangeMessage?, on link: LinkID, now: Duration) {
        guard var state = links[link] else { return }
        let neighbour = keys.remoteNodeID
        guard configuration.permits(neighbour), neighbour != nodeID else {
            links.increment(\.refused)
            emit(.refused(link, neighbour: neighbour))
            _ = links.remove(link)
            actions.append(.disconnect(link))
            return
        }
        // An opening still waiting for the MTU exchange is not needed now.
        state.openingDue = nil
        if let previous = state.neighbour, previous != neighbour {
            // Another identity on the same link: start over, as on a new link.
            _ = neighbours.detach(link, now: now)
            state.keyed = nil
        }
        let firstKeys: Bool
        var rekeyed = false
        if var keyed = state.keyed {
            keyed.session.rekey(with: keys)
            keyed.keyedAt = now
            state.keyed = keyed
            firstKeys = false
            rekeyed = true
        } else {
            let session = LinkSession(keys: keys, padding: configuration.padding ? .buckets : .minimal)
            state.stage = .awaitingProfile(KeyedLink(session: session, neighbour: neighbour, keyedAt: now))
            links.keyed(link, address: state.info.remoteAddress, now: now)
            firstKeys = true
        }
        let legacy = state.handshake.peerIsLegacy
        links.update(state)
        kindCounters[.keyExchange].delivered += 1
        links.increment(\.keyExchanges)
        if firstKeys {
            links.increment(legacy ? \.legacyLinks : \.privateLinks)
            if legacy { emit(.legacyLink(link, neighbour: neighbour)) }
        }
        if let reply { sendKeyExchange(reply, on: link, now: now) }
        actions.append(.preferLink(link))
        emit(.linkKeyed(link, neighbour: neighbour))
        if firstKeys {
            // Announces that this end acknowledges (PROTOCOL.md D12), then, in an opaque packet,
            // that it reads opaque packets (D14; an older node drops it as of an unknown kind), both
            // before the profile: the peer's link is ready on our profile and sends what it held for
            // us then, and only what it sends after our announcement is tracked and sent again when lost.
            sendAcknowledgement(on: link, now: now)
            if configuration.opaquePackets { sendAcknowledgement(on: link, now: now, opaque: true) }
            sendProfile(on: link, now: now)
        }
        if rekeyed {
            // A peer not heard in the opaque form yet (both announcements lost, or an older node)
            // is told again under the new keys (PROTOCOL.md D14).
            if configuration.opaquePackets, links[link]?.keyed?.peerSendsOpaque == false {
                sendAcknowledgement(on: link, now: now, opaque: true)
            }
            resendAfterRekey(on: link, now: now)
        }
    }

    private func receiveSealed(_ packet: [UInt8], kind: MessageKind, on link: LinkID, now: Duration) {
        let result: (opened: (messageID: MessageID, plaintext: [UInt8]), neighbour: NodeID)?
        do {
            // In place: a copy of the link state would copy its replay window on every packet.
            result = try links.withLink(link) { (state) throws(CryptoError) in
                try state.withKeyed { (keyed) throws(CryptoError) in
                    (try keyed.session.open(kind: kind, packet: packet), keyed.neighbour)
                }
            } ?? nil
        } catch {
            linkSealFailed(error, kind: kind, on: link)
            return
        }
        guard let (opened, neighbour) = result else {
            unkeyedPacket(kind: kind, on: link, now: now)
            return
        }
        receiveOpened(opened.plaintext, kind: kind, messageID: opened.messageID, from: neighbour, on: link, now: now)
    }

    /// An opaque link packet (PROTOCOL.md D14): opened first, then handled as the kind sealed inside
    /// it. The first one on a link tells that the peer reads them: this end sends it no other form.
    private func receiveOpaque(_ packet: [UInt8], on link: LinkID, now: Duration) {
        let result: (opened: (kind: UInt8, plaintext: [UInt8]), neighbour: NodeID, first: Bool,
                     previousKeys: Bool, sealedUpTo: UInt64)?
        do {
            result = try links.withLink(link) { (state) throws(CryptoError) in
                try state.withKeyed { (keyed) throws(CryptoError) in
                    let opened = try keyed.session.openOpaque(packet: packet)
                    let first = !keyed.peerSendsOpaque
                    keyed.peerSendsOpaque = true
                    return (opened, keyed.neighbour, first, keyed.session.lastOpenUsedPreviousKey, keyed.session.lastSealedCounter)
                }
            } ?? nil
        } catch {
            linkSealFailed(error, kind: nil, on: link)
            return
        }
        guard let result else {
            unkeyedPacket(kind: nil, on: link, now: now)
            return
        }
        if result.first { links.increment(\.opaqueLinks) }
        let kindByte = result.opened.kind
        if kindByte == LinkAcknowledgementBody.frameKind, configuration.linkDelivery.acknowledges {
            handleAcknowledgement(
                result.opened.plaintext, previousKeys: result.previousKeys, sealedUpTo: result.sealedUpTo,
                from: result.neighbour, on: link, now: now)
            return
        }
        if kindByte == LinkSession.coverKind {
            // Cover (D14): its counter is in the replay window; nothing else to do.
            links.increment(\.coverReceived)
            acceptedPacket(on: link, now: now)
            return
        }
        guard let kind = MessageKind(rawValue: kindByte), kind != .keyExchange else {
            // Sealed and accepted, but of no kind an opaque packet carries here.
            links.increment(\.unknownKinds)
            emit(.dropped(nil, kind: nil, cause: .unknownKind(kindByte), link: link))
            acceptedPacket(on: link, now: now)
            return
        }
        receiveOpened(result.opened.plaintext, kind: kind, messageID: nil, from: result.neighbour, on: link, now: now)
    }

    /// Counts a link packet that did not open.
    func linkSealFailed(_ error: CryptoError, kind: MessageKind?, on link: LinkID) {
        if case .replay = error { links.increment(\.replays) } else { links.increment(\.sealFailures) }
        emit(.dropped(nil, kind: kind, cause: .linkSeal("\(error)"), link: link))
    }

    /// A sealed packet on a link without keys: the neighbour has keys and we do not, so our half
    /// of the exchange was lost. Opens a new one (the handshake's guard interval rate-limits this).
    func unkeyedPacket(kind: MessageKind?, on link: LinkID, now: Duration) {
        links.increment(\.unkeyedFrames)
        emit(.dropped(nil, kind: kind, cause: .unkeyed, link: link))
        startKeyExchange(on: link, now: now)
    }

    /// An opened link packet's envelope: it must be of `kind` and, in today's form, carry the
    /// packet's clear `messageID`.
    private func receiveOpened(
        _ plaintext: [UInt8], kind: MessageKind, messageID: MessageID?, from neighbour: NodeID, on link: LinkID, now: Duration
    ) {
        let envelope: Envelope
        do {
            envelope = try Envelope(decoding: plaintext)
            guard envelope.kind == kind, messageID == nil || envelope.messageID == messageID else {
                throw WireError.invalidField("kind or message ID differs from the link packet")
            }
        } catch {
            kindCounters[kind].droppedMalformed += 1
            emit(.dropped(messageID, kind: kind, cause: .envelope("\(error)"), link: link))
            acceptedPacket(on: link, now: now)
            return
        }
        kindCounters[kind].received += 1
        neighbours.heard(neighbour, now: now)
        receiveEnvelope(envelope, from: neighbour, on: link, now: now)
        acceptedPacket(on: link, now: now)
    }
}
