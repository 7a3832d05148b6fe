import Foundation
import GATTBridge
import MeshLink

/// Event handling and the final report.
extension Checker {
    func handle(_ event: TransportEvent) {
        switch event {
        case .linkUp(let info):
            say("linkUp \(info.id) \(info.role.rawValue) \(info.remoteAddress) frame-limit \(info.mtu)")
            state.withLock {
                $0.links[info.id] = info
                if $0.firstLinkAt == nil { $0.firstLinkAt = elapsed() }
            }
            _ = transport.send(frame("H", "hello"), on: info.id)
            if options.bench > 0 { startBench(on: info.id) }
            let big = [UInt8](repeating: 0x42, count: info.mtu + 1)
            // Accepted for the loop thread, which refuses it there and counts it in `refused[.oversized]`.
            if transport.send(big, on: info.id) == .sent { state.withLock { $0.oversizeSent += 1 } }
        case .linkDown(let id, let reason):
            say("linkDown \(id) \(reason)")
            state.withLock {
                $0.links[id] = nil
                $0.peerOf[id] = nil
                $0.lastLoss = elapsed()
                $0.receivedSinceLoss.removeAll()
            }
        case .mtuChanged(let id, let mtu):
            say("mtuChanged \(id) frame-limit \(mtu)")
            state.withLock { $0.links[id]?.mtu = mtu }
        case .rssiChanged:
            break
        case .frameReceived(let id, let bytes):
            let parts = String(decoding: bytes, as: UTF8.self).split(separator: "|", maxSplits: 2).map(String.init)
            guard parts.count == 3 else { say("odd frame of \(bytes.count) bytes on \(id)"); return }
            let peer = parts[1]
            let note = state.withLock { s -> String? in
                let isNew = s.peerOf[id] == nil
                s.peerOf[id] = peer
                s.received[peer, default: 0] += 1
                s.receivedSinceLoss[peer, default: 0] += 1
                if isNew, let loss = s.lastLoss {
                    let text = String(format: "%@ after %.1f s", peer, elapsed() - loss)
                    s.recoveries.append(text)
                    return "recovered " + text
                }
                return isNew ? "first frame from \(peer) on \(id)" : nil
            }
            if let note { say(note) }
            if parts[0] == "L" || parts[0] == "T" { benchReceived(parts[0], parts[2], bytes: bytes.count); return }
            if parts[0] == "D", let seq = Int(parts[2].prefix { $0 != " " }), seq % 10 == 0 || !options.sizes.isEmpty {
                say("got frame #\(seq) from \(peer) (\(bytes.count) bytes) on \(id)")
            }
        }
    }

    /// Prints the SUMMARY and COUNTERS lines the VM scenario checks.
    func report(_ final: Observations, _ counters: BlueZCounters) {
        let peers = final.received.keys.sorted()
        say("SUMMARY peers=\(peers.joined(separator: ",")) received=\(final.received.sorted { $0.key < $1.key }) "
            + "since-last-loss=\(final.receivedSinceLoss.sorted { $0.key < $1.key }) sent=\(final.sent) "
            + "links-now=\(final.links.count) first-link-at=\(final.firstLinkAt.map { String(format: "%.1f", $0) } ?? "-") "
            + "oversize-sent=\(final.oversizeSent) oversize-refused=\(counters.refused[.oversized, default: 0]) "
            + "recoveries=\(final.recoveries)")
        for line in benchReport(final) { say(line) }
        say("COUNTERS written=\(counters.framesWritten) notified=\(counters.notificationsSent) "
            + "writeFailed=\(counters.writesFailed) droppedWithLink=\(counters.framesDroppedWithLink) received=\(counters.framesReceived) refused=\(counters.refused) "
            + "attempts=\(counters.connectAttempts) failures=\(counters.connectFailures) up=\(counters.linksUp) "
            + "down=\(counters.linksDown) bluezLost=\(counters.bluezLost) apps=\(counters.applicationRegistrations) "
            + "advs=\(counters.advertisementRegistrations) regFail=\(counters.registrationFailures) "
            + "badReq=\(counters.badRequests) badSig=\(counters.badSignals) dbus=\(counters.dbus.byKind)")
    }
}
