import ControlProtocol
import Mailbox
import MeshNode
import MeshProtocol

extension NodeRuntime {
    /// Originates a chat message on the engine queue; a direct message to a node whose key is not
    /// known waits for a key lookup (docs/PROTOCOL.md Part H): with a mailbox, in its database until
    /// the key is known or the retention ends (H4, "Waiting for a key"); without, in memory for the
    /// lookup's timeout.
    func originate(text: String, to destination: NodeID?) throws(SendFailure) -> (OriginatedMessage, [EngineAction]) {
        guard let destination else { return try engine.send(text: text, to: nil, now: now) }
        if let store = mailboxCourier?.store, destination != engine.nodeID, !engine.knowsKey(of: destination) {
            return try holdForKey(text: text, to: destination, store: store)
        }
        let (outcome, actions) = try engine.sendOrLookUp(text: text, to: destination, now: now)
        switch outcome {
        case .sent(let sent):
            return (sent, actions)
        case .waitingForKey(let id):
            return (OriginatedMessage(messageID: id, sentTo: 0, heldFor: 0, waitingForKey: true), actions)
        }
    }

    /// Keeps a direct message for a node whose key is unknown in the mailbox database (committed
    /// before the writer hears "held") and starts a lookup; the courier sends it when the key comes.
    private func holdForKey(text: String, to destination: NodeID, store: MailboxStore) throws(SendFailure) -> (OriginatedMessage, [EngineAction]) {
        guard text.utf8.count <= ChatBody.maxTextLength else { throw .textTooLong(text.utf8.count) }
        var generator = SystemRandomNumberGenerator()
        let messageID = MessageID(random: &generator)
        guard store.holdForKey(text, messageID: messageID, target: destination, now: engine.meshTime(at: now)) == .held else {
            throw .keyWaitFull
        }
        if !store.flush() {
            logger.warning(.mailbox, "mailbox database write failed; the message waiting for a key is retried at the next tick",
                           LogFields(otherNode: destination, messageID: messageID, reason: "store_error"))
        }
        let actions = engine.pendingLookups.lookups[destination] == nil ? engine.lookUp(destination, now: now).1 : []
        var held = OriginatedMessage(messageID: messageID, sentTo: 0, heldFor: 0, waitingForKey: true)
        held.heldForKey = true
        return (held, actions)
    }

    /// What is known of `node`; starts a key lookup when its key is not known, none is in flight
    /// and `start` is true.
    public func lookup(_ node: NodeID, start: Bool) throws(ControlFailure) -> LookupReport {
        var result: Result<LookupReport, ControlFailure> = .failure(.badRequest("the node is this node"))
        queue.sync {
            guard node != engine.nodeID else { return }
            let now = self.now
            if start, !engine.knowsKey(of: node), engine.pendingLookups.lookups[node] == nil {
                let (started, actions) = engine.lookUp(node, now: now)
                perform(actions)
                if started == .full {
                    result = .failure(.notReady("too many key lookups in flight"))
                    return
                }
                logger.info(.messageOriginated, "key lookup started", LogFields(otherNode: node, kind: .keyRequest))
            }
            result = .success(report(node, now: now))
        }
        return try result.get()
    }

    private func report(_ node: NodeID, now: Duration) -> LookupReport {
        let neighbour = engine.neighbourSnapshots().first { $0.nodeID == node }
        let remote = engine.remoteNodeSnapshots().first { $0.nodeID == node }
        let lookup = engine.pendingLookups.lookups[node]
        let profile = neighbour?.profile ?? remote?.profile
        let hops = neighbour != nil ? 1 : remote.map { Int($0.hops) }
        let heard = neighbour?.lastHeard ?? remote?.lastHeard
        return LookupReport(
            nodeID: node, known: engine.knowsKey(of: node), neighbour: neighbour != nil, name: profile?.displayName,
            hops: hops, lastHeardSecondsAgo: heard.map { seconds(now - $0) }, lookingUp: lookup != nil,
            lookupSecondsAgo: lookup.map { seconds(now - $0.started) },
            waitingMessages: (lookup?.messages.count ?? 0) + (mailboxCourier?.store.keyWait.waiting(for: node).count ?? 0),
            timeoutSeconds: seconds(engine.configuration.lookup.timeout))
    }
}
