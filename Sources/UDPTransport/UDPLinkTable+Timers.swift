import MeshLink
import MeshProtocol

extension UDPLinkTable {
    /// Runs the timers: silent links go down, held challenges go out, quiet links get a keepalive,
    /// due neighbours a connect.
    mutating func tick(now: Duration) -> [Action] {
        var actions: [Action] = []
        for id in links.keys.sorted() where now - (links[id]?.lastHeard ?? now) >= configuration.linkTimeout {
            actions += removeLink(id, reason: "silent for \(DurationText.format(configuration.linkTimeout))",
                                  notifyPeer: true, now: now)
        }
        actions += challengeHeldTriggers(now: now)
        for id in links.keys.sorted() {
            guard let link = links[id], now - link.lastSent >= configuration.keepaliveInterval else { continue }
            let keepalive = UDPDatagram(type: .keepalive, fromCentral: link.role == .central, instance: instance,
                                        linkNonce: link.nonce)
            links[id]?.lastSent = now
            actions.append(.send(keepalive, to: link.remote))
        }
        for index in neighbours.indices {
            // Sent even when every slot is taken: the accept may displace an unkeyed link (makeRoom).
            guard case .connecting(let nonce, let due) = neighbours[index].state, due <= now else { continue }
            let connect = UDPDatagram(type: .connect, fromCentral: true, instance: instance, linkNonce: nonce,
                                      body: UDPDatagram.mtuBody(configuration.mtu))
            neighbours[index].state = .connecting(nonce: nonce, nextAttempt: now + configuration.connectInterval)
            actions.append(.send(connect, to: neighbours[index].endpoint))
        }
        return actions
    }

    /// Decides what happens to one outgoing frame.
    mutating func planSend(_ frame: [UInt8], on id: LinkID, now: Duration) -> SendPlan {
        guard let link = links[id] else { return .gone }
        guard frame.count <= link.mtu else {
            counters.oversizedSends += 1
            return .tooLong(mtu: link.mtu)
        }
        if configuration.loss > 0, Double.random(in: 0..<1, using: &random) < configuration.loss {
            counters.framesLost += 1
            return .lost
        }
        links[id]?.lastSent = now
        let datagram = UDPDatagram(type: .frame, fromCentral: link.role == .central, instance: instance,
                                   linkNonce: link.nonce, body: frame)
        return .send(datagram, to: link.remote)
    }

    /// The answer to a challenge that arrives after `closeAll`: every link is gone. Nil for anything else.
    func answerAfterStop(_ bytes: [UInt8], from source: UDPEndpoint) -> UDPDatagram? {
        guard let datagram = try? UDPDatagram(decoding: bytes), let value = datagram.challengeValue,
              datagram.type == .challenge else { return nil }
        return UDPDatagram(type: .answer, fromCentral: !datagram.fromCentral, instance: instance,
                           linkNonce: datagram.linkNonce, body: UDPDatagram.answerBody(value, verdict: .gone))
    }

    /// Close datagrams for every link, for a clean stop; the table is emptied without events.
    ///
    /// Before each close goes a "gone" answer echoing the last challenge the peer sent on that link,
    /// if it sent one: proof the peer accepts at once, where a close alone waits for its challenge
    /// (which a forger's closes may have held back for up to a keepalive interval).
    mutating func closeAll() -> [(UDPDatagram, UDPEndpoint)] {
        let all = links.values.sorted { $0.id < $1.id }.flatMap { link in
            let proof = link.peerChallengeValue.map {
                UDPDatagram(type: .answer, fromCentral: link.role == .central, instance: instance, linkNonce: link.nonce,
                            body: UDPDatagram.answerBody($0, verdict: .gone))
            }
            return (proof.map { [($0, link.remote)] } ?? []) + [(closeDatagram(link.nonce, role: link.role), link.remote)]
        }
        for link in links.values { _ = removeLink(link.id, reason: "stopped", notifyPeer: false, now: .zero) }
        return all
    }
}
