import ControlProtocol
import Glibc
import MeshLink
import MeshNode
import MeshProtocol
import MQTTBridge

extension NodeRuntime: NodeControlling {
    /// Originates a chat message on the engine queue.
    public func send(text: String, to destination: NodeID?) throws(ControlFailure) -> OriginatedMessage {
        var result: Result<OriginatedMessage, SendFailure> = .failure(.destinationIsSelf)
        queue.sync {
            result = Result { () throws(SendFailure) -> OriginatedMessage in
                let (sent, actions) = try originate(text: text, to: destination)
                let what = destination == nil ? "broadcast" : "direct message"
                if sent.waitingForKey {
                    logger.info(.messageOriginated, "direct message waits for a key lookup",
                                LogFields(otherNode: destination, kind: .message, hops: 0, messageID: sent.messageID))
                } else {
                    logger.info(.messageOriginated, "\(what) sent to \(sent.sentTo) neighbour(s), held for \(sent.heldFor)",
                                LogFields(otherNode: destination, kind: .message, hops: 0, messageID: sent.messageID))
                }
                perform(actions)
                var outcome = sent
                // Offered is not held: the mailbox may have refused it (a cap, no database).
                outcome.offeredToMailbox = sent.offeredToMailbox && mailboxCourier?.store.index.entries[sent.messageID] != nil
                return outcome
            }
        }
        switch result {
        case .success(let sent): return sent
        case .failure(.noNeighbours): throw .noNeighbours
        case .failure(.textTooLong(let length)): throw .tooLong(length: length, limit: ChatBody.maxTextLength)
        case .failure(.unknownDestination(let node)): throw .unknownNode(node.hex)
        case .failure(.destinationIsSelf): throw .badRequest("the destination is this node")
        case .failure(.crypto(let detail)): throw .internalError(detail)
        case .failure(.lookupsFull): throw .notReady("too many key lookups in flight")
        case .failure(.keyWaitFull): throw .notReady("too many messages wait for keys (relayctl mailbox)")
        }
    }

    /// Neighbours with their links, and nodes known further away.
    public func peers() -> PeersReport {
        queue.sync {
            let now = self.now
            let neighbours = engine.neighbourSnapshots().map { neighbour in
                NeighbourReport(
                    nodeID: neighbour.nodeID, profile: neighbour.profile,
                    links: neighbour.links.map { LinkReport($0.info, transport: transportName(of: $0.info.id)) },
                    lastHeardSecondsAgo: seconds(now - neighbour.lastHeard), departing: neighbour.inGrace)
            }
            let remote = engine.remoteNodeSnapshots().map {
                RemoteNodeReport(nodeID: $0.nodeID, name: $0.profile?.displayName, hops: Int($0.hops),
                                 lastHeardSecondsAgo: seconds(now - $0.lastHeard))
            }
            return PeersReport(neighbours: neighbours, remote: remote)
        }
    }

    /// Every counter group, uptime and memory.
    public func stats() -> StatsReport {
        queue.sync {
            var counters: [String: [String: UInt64]] = [:]
            for kind in MessageKind.allCases { counters[kind.description] = CounterDictionary.make(from: engine.kindCounters[kind]) }
            counters["links"] = CounterDictionary.make(from: engine.linkCounters)
            counters["hold"] = CounterDictionary.make(from: engine.holdCounters)
            counters["lookup"] = CounterDictionary.make(from: engine.lookupCounters)
                .merging(["in_flight": UInt64(engine.pendingLookups.lookups.count),
                          "waiting_messages": UInt64(engine.pendingLookups.waitingMessages)]) { $1 }
            counters["relay"] = CounterDictionary.make(from: engine.relayCounters).merging(engine.bridgeHoldCounters) { $1 }
            counters["admission"] = CounterDictionary.make(from: engine.admissionCounters)
            let (inboxCounters, waiting) = driver.inboxCounters
            counters["inbox"] = CounterDictionary.make(from: inboxCounters).merging(["waiting_frames": UInt64(waiting)]) { $1 }
            counters["fragments"] = CounterDictionary.make(from: engine.fragmenterCounters)
            counters["engine"] = [
                "seen_cache_ids": UInt64(engine.seenCacheSize),
                "buffered_fragment_bytes": UInt64(engine.bufferedFragmentBytes),
                "neighbours": UInt64(engine.neighbourSnapshots().count),
                "known_nodes": UInt64(engine.remoteNodeSnapshots().count),
                "known_nodes_evicted": engine.knownNodeEvictions,
                "held_messages": UInt64(engine.heldMessageCount),
                "held_bytes": UInt64(engine.heldBytes),
                "clock_synchronised": engine.clock.isSynchronised ? 1 : 0,
                "clock_votes": UInt64(engine.clock.voteCount(now: now)),
                "clock_behind_ms": UInt64(max(0, engine.clock.offsetMilliseconds ?? 0)),
                "clock_ahead_ms": UInt64(max(0, -(engine.clock.offsetMilliseconds ?? 0))),
            ]
            counters["seen_journal"] = CounterDictionary.make(from: journal?.counters ?? SeenJournalCounters())
            counters["mailbox"] = mailboxCounters()
            counters["outbox"] = outboxCounters()
            counters["control"] = controlCounters()
            counters["transport"] = transport.status.counters
            // With several transports, each has its group beside the sum (CONTROL.md, "Counter groups").
            if let set = transport as? TransportSet, set.members.count > 1 {
                for (name, status) in set.statusByTransport { counters["transport_" + name] = status.counters }
            }
            // All zero on a node that is no gateway, so every node has the same groups.
            counters["mqtt"] = CounterDictionary.make(from: bridge?.status.counters ?? MQTTBridgeCounters())
            return StatsReport(uptimeSeconds: seconds(now), memory: ProcessMemory.current(), counters: counters)
        }
    }

    /// A one-screen summary, led by the health word.
    public func status() -> StatusReport {
        queue.sync {
            let neighbours = engine.neighbourSnapshots().filter { !$0.inGrace }.count
            let transportState = transport.status.summary
            let bridge = bridge.map { bridgeReport($0.status) }
            var report = StatusReport(
                nodeID: nodeIdentity.nodeID, name: engine.configuration.displayName, transport: transportName,
                state: state, uptimeSeconds: seconds(now),
                neighbourCount: neighbours,
                knownNodeCount: engine.remoteNodeSnapshots().count, version: DaemonVersion.current,
                transportState: transportState,
                clock: ClockReport(
                    synchronised: engine.clock.isSynchronised, offsetMilliseconds: engine.clock.offsetMilliseconds ?? 0,
                    votes: engine.clock.voteCount(now: now)),
                bridge: bridge)
            let reload = confined.value.reload
            let transports = (transport as? TransportSet)?.statusByTransport.map { ($0.name, $0.status.summary) }
                ?? [(transportName, transportState)]
            let health = NodeHealth.judge(state: state, transports: transports, neighbours: neighbours,
                                          bridge: bridge?.state, reload: reload)
            report.health = health.word.rawValue
            report.healthReasons = health.reasons
            report.restartNeededFor = reload.restartNeededFor.isEmpty ? nil : reload.restartNeededFor
            report.reloadError = reload.refusedReason
            if let context = confined.value.context {
                report.configFile = context.configFile
                report.stateDirectory = context.stateDirectory
                report.controlSocket = context.controlSocket
                report.user = context.user
                report.pid = context.pid
                report.systemd = context.systemd
            }
            return report
        }
    }

    /// This node's ID, fingerprint and public keys.
    public func identity() -> IdentityReport {
        IdentityReport(
            nodeID: nodeIdentity.nodeID, fingerprint: nodeIdentity.fingerprint,
            signingKey: nodeIdentity.signingPublicKey.x963, agreementKey: nodeIdentity.agreementPublicKey.x963)
    }

    /// Registers a watcher; events arrive on the engine queue and must be handed off quickly.
    public func addWatcher(_ sink: @escaping @Sendable (WatchEvent) -> Void) -> UInt64 {
        queue.sync {
            let token = nextWatcher
            nextWatcher += 1
            watchers[token] = sink
            return token
        }
    }

    /// Removes a watcher.
    public func removeWatcher(_ token: UInt64) {
        queue.sync { _ = watchers.removeValue(forKey: token) }
    }

    private func bridgeReport(_ status: MQTTBridgeStatus) -> BridgeReport {
        var report = BridgeReport(state: "", broker: status.broker, lastError: status.lastError, queued: status.counters.queueDepth)
        switch status.state {
        case .stopped: report.state = "stopped"
        case .connecting: report.state = "connecting"
        case .connected: report.state = "connected"
        case .reconnecting(let at):
            report.state = "reconnecting"
            report.retryInSeconds = max(0, seconds(at - now))
        }
        return report
    }

    func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
