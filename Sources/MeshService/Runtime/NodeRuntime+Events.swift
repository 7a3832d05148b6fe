import MeshNode
import MeshProtocol

extension NodeRuntime {
    /// Logs an engine event and streams it to watchers; with a journal, a delivery is reported
    /// to watchers once its ID is on the disk (``SeenJournal``).
    func watch(_ event: EngineEvent) {
        guard case .delivered = event, let journal, !watchers.isEmpty else { return report(event) }
        journal.whenDurable { [weak self] in
            guard let self else { return }
            self.queue.async { self.report(event) }
        }
    }

    /// Logs an engine event with structured fields and streams it to watchers.
    /// Message text never goes to the log. What happens once per message (delivered, relayed,
    /// dropped) is logged at debug: at info a flood would cost a record per message.
    func report(_ event: EngineEvent) {
        switch event {
        case .delivered(let message):
            logger.debug(.messageDelivered, "message delivered",
                        LogFields(otherNode: message.origin, kind: .message, hops: Int(message.hops), messageID: message.messageID))
            broadcast(.message(id: message.messageID, from: message.origin, to: message.destination,
                               hops: Int(message.hops), text: message.text))
        case .linkKeyed(let link, let neighbour):
            logger.info(.handshakeCompleted, "link keyed", LogFields(otherNode: neighbour, kind: .keyExchange, link: link))
        case .neighbourJoined(let profile):
            logger.notice(.nodeJoined, "neighbour joined: \(profile.displayName)", LogFields(otherNode: profile.nodeID))
            broadcast(.neighbourJoined(node: profile.nodeID, name: profile.displayName))
        case .neighbourReturned(let node):
            logger.info(.nodeJoined, "neighbour returned within its grace", LogFields(otherNode: node, reason: "returned"))
        case .neighbourDeparted(let node):
            logger.notice(.neighbourLeft, "neighbour departed", LogFields(otherNode: node, reason: "departed"))
            broadcast(.neighbourLeft(node: node, name: nil, reason: "departed"))
        case .nodeLearned(let profile, let hops):
            logger.info(.nodeJoined, "node learned from its join notice: \(profile.displayName)",
                        LogFields(otherNode: profile.nodeID, kind: .joinNotice, hops: Int(hops)))
        case .handshakeTimedOut(let link):
            logger.warning(.handshakeFailed, "no valid profile within the handshake timeout; link closed",
                           LogFields(link: link, reason: "handshake_timeout"))
        case .relayed(let id, let kind, let hops, let count, let opaque):
            logger.debug(.messageRelayed, "relayed to \(count) neighbour(s)\(opaque ? " (sealed, opaque)" : "")",
                        LogFields(kind: kind, hops: Int(hops), messageID: id, reason: opaque ? "opaque" : nil))
        case .dropped(let id, let kind, let cause, let source):
            // What came from the bridge has no link: the record says so instead of a link field.
            let fields = LogFields(kind: kind, messageID: id, link: source.link, reason: cause.code)
            let from = source == .bridge ? " (from the bridge)" : ""
            if cause.isHandshakeFailure || kind == .keyExchange {
                logger.warning(.handshakeFailed, "dropped: \(cause)\(from)", fields)
            } else if id == nil {
                logger.debug(.frameRejected, "frame rejected: \(cause)\(from)", fields)
            } else {
                logger.debug(.messageDropped, "dropped: \(cause)\(from)", fields)
            }
        case .refused(let link, let neighbour):
            logger.notice(.handshakeFailed, "neighbour refused by the allow/deny list",
                          LogFields(otherNode: neighbour, link: link, reason: "refused"))
        case .keyFound(let profile, let hops):
            logger.info(.nodeJoined, "key found by lookup: \(profile.displayName)",
                        LogFields(otherNode: profile.nodeID, kind: .keyAnswer, hops: Int(hops)))
        case .lookupFailed(let node, let dropped):
            logger.notice(.messageDropped, "key lookup found no answer; \(dropped) waiting message(s) not sent",
                          LogFields(otherNode: node, kind: .keyRequest, reason: "lookup_timeout"))
        case .sentAfterLookup(let node, let sent):
            logger.info(.messageOriginated, "direct message sent after key lookup to \(sent.sentTo) neighbour(s)",
                        LogFields(otherNode: node, kind: .message, hops: 0, messageID: sent.messageID))
        case .meshClock(let change):
            logger.notice(.meshClock, MeshClockText.describe(change), LogFields(reason: MeshClockText.reason(change)))
        case .legacyLink(let link, let neighbour):
            logger.notice(.handshakeCompleted,
                          "link keyed with key exchange version 1 (an older node): this link is not private, both node IDs went over the air in clear",
                          LogFields(otherNode: neighbour, link: link, reason: "not_private"))
        case .legacyRefused(let link, let neighbour):
            logger.notice(.handshakeFailed, "neighbour refused: it speaks only key exchange version 1 and private_only is set",
                          LogFields(otherNode: neighbour, link: link, reason: "not_private"))
        case .linkUnacknowledged(let link, let neighbour):
            logger.notice(.handshakeCompleted,
                          "the neighbour sends no link acknowledgements (an older node): delivery on this link is not confirmed",
                          LogFields(otherNode: neighbour, link: link, reason: "unacknowledged"))
        }
    }
}
