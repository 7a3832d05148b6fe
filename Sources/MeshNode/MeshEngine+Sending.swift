import Flooding
import Fragmenter
import MeshCrypto
import MeshProtocol

/// Why the engine could not originate a message.
public enum SendFailure: Error, Equatable, Sendable {
    /// The text is longer than a chat body allows.
    case textTooLong(Int)
    /// No key is known for the destination (it is not a neighbour and no join notice named it).
    case unknownDestination(NodeID)
    /// The destination is this node.
    case destinationIsSelf
    /// Sealing or signing failed.
    case crypto(String)
}

extension MeshEngine {
    /// Originates a chat message: broadcast when `destination` is nil, else a direct message
    /// sealed end to end for it. Returns the message ID; the actions go out with it.
    public func send(text: String, to destination: NodeID? = nil, now: Duration) throws(SendFailure) -> (MessageID, [EngineAction]) {
        let textLength = text.utf8.count
        guard textLength <= ChatBody.maxTextLength else { throw .textTooLong(textLength) }
        guard destination != nodeID else { throw .destinationIsSelf }
        let body = ChatBody(
            signingKey: identity.signingPublicKey.compressed, agreementKey: identity.agreementPublicKey.compressed,
            text: text)
        var envelope = Envelope(
            kind: .message, messageID: newMessageID(), origin: nodeID, destination: destination,
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
        originate(envelope, now: now)
        return (envelope.messageID, takeActions())
    }

    /// The key-agreement key of a neighbour or known node.
    func agreementKey(of node: NodeID) -> P256PublicKey? {
        let bytes = profiles[node]?.agreementKey ?? knownNodes.entries[node]?.agreementKey
        return bytes.flatMap { try? P256PublicKey(x963: $0) }
    }

    /// Sends an envelope this node created to every ready neighbour.
    func originate(_ envelope: Envelope, now: Duration) {
        router.recordOriginated(envelope.messageID, now: now)
        for neighbour in readyNeighbours() where sendEnvelope(envelope, to: neighbour, now: now) {
            kindCounters[envelope.kind].sent += 1
        }
    }

    /// Neighbours whose profile is verified and that have a live keyed link.
    func readyNeighbours() -> [NodeID] {
        peers.linkedNeighbours.filter { profiles[$0] != nil }
    }

    /// Seals and sends an envelope to a neighbour on its best link; false when it has none.
    @discardableResult
    func sendEnvelope(_ envelope: Envelope, to neighbour: NodeID, now: Duration) -> Bool {
        guard let link = peers.bestLink(to: neighbour) else { return false }
        return sendSealed(envelope, on: link, now: now)
    }

    /// Seals an envelope with a link's key and sends its frames.
    @discardableResult
    func sendSealed(_ envelope: Envelope, on link: LinkID, now: Duration) -> Bool {
        guard var state = links[link], state.session != nil else { return false }
        let packet: [UInt8]
        do {
            packet = try state.session!.seal(kind: envelope.kind, messageID: envelope.messageID, plaintext: envelope.encoded())
        } catch {
            linkCounters.sealFailures += 1
            return false
        }
        let rekey = state.handshake.needsRekey(messagesSent: state.session!.messagesSent, now: now)
        links[link] = state
        let sent = sendFrames(of: packet, kind: envelope.kind, on: link, now: now)
        if rekey {
            linkCounters.rekeys += 1
            startKeyExchange(on: link, now: now)
        }
        return sent
    }

    /// Splits a message for the link's current MTU and queues its frames.
    @discardableResult
    func sendFrames(of message: [UInt8], kind: MessageKind, on link: LinkID, now: Duration) -> Bool {
        guard var state = links[link] else { return false }
        let split: SplitMessage
        do {
            split = try state.sender.split(message, kind: kind.rawValue, mtu: state.info.mtu, now: now)
        } catch {
            linkCounters.splitFailures += 1
            links[link] = state
            return false
        }
        links[link] = state
        for frame in split.frames { actions.append(.send(frame, on: link)) }
        return true
    }

    /// Sends our signed profile on a newly keyed link.
    func sendProfile(on link: LinkID, now: Duration) {
        guard links[link]?.profileSent == false else { return }
        var envelope = Envelope(
            kind: .profile, messageID: newMessageID(), origin: nodeID, route: [nodeID], timestamp: timestamp(at: now),
            payload: profile.encoded())
        guard (try? EnvelopeSigner.sign(&envelope, with: identity)) != nil else { return }
        if sendSealed(envelope, on: link, now: now) {
            links[link]?.profileSent = true
            links[link]?.handshakeSentAt = now
            kindCounters[.profile].sent += 1
        }
    }

    /// Sends our profile again on `link`, at most once per key exchange guard interval.
    func resendProfile(on link: LinkID, now: Duration) {
        guard let state = links[link], state.session != nil,
            now - state.handshakeSentAt >= configuration.keyExchangeGuard
        else { return }
        links[link]?.profileSent = false
        sendProfile(on: link, now: now)
    }

    /// Sends our signed join notice to every ready neighbour.
    func sendJoinNotice(now: Duration) {
        var envelope = Envelope(
            kind: .joinNotice, messageID: newMessageID(), origin: nodeID, route: [nodeID],
            timestamp: timestamp(at: now), payload: profile.encoded())
        guard (try? EnvelopeSigner.sign(&envelope, with: identity)) != nil else { return }
        lastJoinNotice = now
        joinNoticePending = false
        // Any notice answers every newcomer that has reached us so far.
        joinAnswerPending = false
        originate(envelope, now: now)
    }
}
