import Flooding
import MeshLink
import MeshProtocol

extension MeshEngine {
    /// Runs every timer due at `now`: handshake timeouts, heartbeats, departures, re-keys,
    /// coalesced join notices, scheduled relays and cache expiry. Call it often (the
    /// daemon and the simulator call it every 250 ms); it does nothing that is not due.
    public func tick(now: Duration) -> [EngineAction] {
        closeLinksPastKeyDeadline(now: now)
        closeStalledHandshakes(now: now)
        sendDueOpenings(now: now)
        retryHandshakes(now: now)
        closeSilentNeighbours(now: now)
        for node in neighbourTable.departures(now: now, grace: configuration.departureGrace) {
            profiles[node] = nil
            offerHeldToMailbox(held.discard(for: node), departed: node)
            linkCounters.departures += 1
            emit(.neighbourDeparted(node))
        }
        rekeyAgedLinks(now: now)
        runLinkDelivery(now: now)
        if pacing.takeHeartbeat(now: now) { sendHeartbeats(now: now) }
        if pacing.noticeDue(now: now, hasNeighbours: !readyNeighbours().isEmpty) { sendJoinNotice(now: now) }
        flushRelays(now: now)
        sendDueAnswers(now: now)
        runLookupTimers(now: now)
        reassemblers.expire(now: now)
        held.expire(now: now)
        knownNodes.expire(now: now)
        deliveries.removeExpired(now: timestamp(at: now))
        if budgets.count > neighbourTable.neighbours.count + links.count {
            budgets.keep(only: Set(neighbourTable.neighbours.keys).union(links.values.compactMap(\.neighbour)))
        }
        return takeActions()
    }

    /// Records that the transport refused a frame the engine asked it to send.
    public func recordSendFailure(_ outcome: SendOutcome, on link: LinkID) {
        guard outcome != .sent else { return }
        linkCounters.sendFailures += 1
    }

    private func closeStalledHandshakes(now: Duration) {
        let stalled = links.values.filter {
            $0.phase != .ready && now - $0.openedAt >= configuration.handshakeTimeout
        }.map(\.info.id).sorted()
        for link in stalled {
            linkCounters.handshakeTimeouts += 1
            emit(.handshakeTimedOut(link))
            linkDown(link, now: now)
            actions.append(.disconnect(link))
        }
    }

    /// Repeats the last handshake step on links still not ready a guard interval after this
    /// end last sent one: a lost key exchange or profile (UDP) would otherwise hold the link
    /// until the handshake timeout closes it. A lossless link (BLE) repeats only its profile.
    private func retryHandshakes(now: Duration) {
        let waiting = links.values.filter {
            $0.phase != .ready && $0.openingDue == nil && now - $0.handshakeSentAt >= configuration.keyExchangeGuard
        }.map(\.info.id).sorted()
        for link in waiting {
            switch links[link]?.phase {
            case .keyExchange?:
                // A lossless link lost nothing: our opening is still on its way (a slow radio).
                // A sealed frame from a peer that has keys while we have none starts a new one.
                guard links[link]?.info.lossless == false else { continue }
                startKeyExchange(on: link, now: now)
            case .awaitingProfile?:
                resendProfile(on: link, now: now)
            case .ready?, nil:
                continue
            }
            if links[link]?.handshakeSentAt == now { linkCounters.handshakeRetries += 1 }
        }
    }

    private func closeSilentNeighbours(now: Duration) {
        for node in neighbourTable.silent(now: now, grace: configuration.departureGrace) {
            let nodeLinks = neighbourTable.neighbours[node].map { Array($0.links.keys).sorted() } ?? []
            for link in nodeLinks {
                linkDown(link, now: now)
                actions.append(.disconnect(link))
            }
        }
    }

    private func rekeyAgedLinks(now: Duration) {
        let aged = links.values.filter { state in
            guard let keyed = state.keyed else { return false }
            return state.handshake.needsRekey(messagesSent: keyed.session.messagesSent, now: now)
        }.map(\.info.id).sorted()
        for link in aged {
            linkCounters.rekeys += 1
            startKeyExchange(on: link, now: now)
        }
    }

    /// One heartbeat per neighbour per interval, on its best link: never one per link or per hop.
    private func sendHeartbeats(now: Duration) {
        for neighbour in readyNeighbours() {
            let envelope = Envelope(
                kind: .heartbeat, messageID: newMessageID(), origin: nodeID, route: [nodeID],
                timestamp: timestamp(at: now))
            if sendEnvelope(envelope, to: neighbour, now: now) { kindCounters[.heartbeat].sent += 1 }
        }
    }
}
