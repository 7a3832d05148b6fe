import Flooding
import MeshLink
import MeshProtocol

extension MeshEngine {
    /// Runs every timer due at `now`: handshake timeouts, heartbeats, departures, re-keys,
    /// coalesced join notices, scheduled relays, cover packets and cache expiry. Call it often (the
    /// daemon and the simulator call it every 250 ms); it does nothing that is not due.
    public func tick(now: Duration) -> [EngineAction] {
        closeLinksPastKeyDeadline(now: now)
        closeStalledHandshakes(now: now)
        sendDueOpenings(now: now)
        retryHandshakes(now: now)
        closeSilentNeighbours(now: now)
        for departure in neighbours.departures(now: now, grace: configuration.departureGrace) {
            offerHeldToMailbox(departure.held, departed: departure.node)
            links.increment(\.departures)
            emit(.neighbourDeparted(departure.node))
        }
        rekeyAgedLinks(now: now)
        runLinkDelivery(now: now)
        if pacing.takeHeartbeat(now: now) { sendHeartbeats(now: now) }
        if pacing.noticeDue(now: now, hasNeighbours: readyNeighbourCount() > 0) { sendJoinNotice(now: now) }
        flushRelays(now: now)
        sendDueAnswers(now: now)
        runLookupTimers(now: now)
        sendDueCover(now: now)
        links.expireTransfers(now: now)
        neighbours.expireHeld(now: now)
        knownNodes.expire(now: now)
        mailbox.removeExpired(meshNow: timestamp(at: now))
        if budgets.count > neighbours.table.neighbours.count + links.count {
            budgets.keep(only: Set(neighbours.table.neighbours.keys).union(links.neighbours))
        }
        return takeActions()
    }

    /// Records that the transport refused a frame the engine asked it to send.
    public func recordSendFailure(_ outcome: SendOutcome, on link: LinkID) {
        guard outcome != .sent else { return }
        links.increment(\.sendFailures)
    }

    private func closeStalledHandshakes(now: Duration) {
        for link in links.stalled(now: now, timeout: configuration.handshakeTimeout) {
            links.increment(\.handshakeTimeouts)
            emit(.handshakeTimedOut(link))
            linkDown(link, now: now)
            actions.append(.disconnect(link))
        }
    }

    /// Repeats the last handshake step on links still not ready a guard interval after this
    /// end last sent one: a lost key exchange or profile (UDP) would otherwise hold the link
    /// until the handshake timeout closes it. A lossless link (BLE) repeats only its profile.
    private func retryHandshakes(now: Duration) {
        for link in links.awaitingRetry(now: now, interval: configuration.keyExchangeGuard) {
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
            if links[link]?.handshakeSentAt == now { links.increment(\.handshakeRetries) }
        }
    }

    private func closeSilentNeighbours(now: Duration) {
        for link in neighbours.silentLinks(now: now, grace: configuration.departureGrace) {
            linkDown(link, now: now)
            actions.append(.disconnect(link))
        }
    }

    private func rekeyAgedLinks(now: Duration) {
        for link in links.dueForRekey(now: now) {
            links.increment(\.rekeys)
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
