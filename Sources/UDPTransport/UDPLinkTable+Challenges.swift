import MeshLink
import MeshProtocol

/// Tearing a link down takes proof from its recorded address.
///
/// A close, or a connect or accept that says the peer re-dialled or restarted, only starts a
/// challenge: a fresh random value sent to the link's recorded address. The link goes down when
/// an answer from that address echoes the value and says "gone"; an answer "still here" keeps
/// it. Whoever can only forge the peer's source address never sees the value. At most one
/// challenge per link per keepalive interval, answered or not: a trigger within the interval is
/// held and challenged once when the interval has passed (`challengeHeldTriggers`), so closes
/// forged to both ends at once cost each end one challenge and one answer per second, and a real
/// close that comes during a forger's flood still ends the link a keepalive interval later. A
/// link whose peer never answers times out as usual.
extension UDPLinkTable {
    /// Challenges `id` for `reason`, unless its last challenge went out less than a keepalive
    /// interval ago: then the trigger is held for `challengeHeldTriggers`.
    mutating func challenge(_ id: LinkID, reason: String, now: Duration) -> [Action] {
        guard let link = links[id] else { return [] }
        if let last = link.lastChallengeAt, now - last < configuration.keepaliveInterval {
            counters.challengesSuppressed += 1
            links[id]?.heldTrigger = reason
            return []
        }
        let value = random.next() as UInt64
        links[id]?.challenge = OutstandingChallenge(value: value, sentAt: now, reason: reason)
        links[id]?.lastChallengeAt = now
        links[id]?.lastChallengeValue = value
        links[id]?.heldTrigger = nil
        counters.challengesSent += 1
        let datagram = UDPDatagram(type: .challenge, fromCentral: link.role == .central, instance: instance,
                                   linkNonce: link.nonce, body: UDPDatagram.challengeBody(value))
        return [.send(datagram, to: link.remote)]
    }

    /// Sends the challenges held back by the rate limit whose keepalive interval has passed (from `tick`).
    mutating func challengeHeldTriggers(now: Duration) -> [Action] {
        links.values.filter { link in
            guard link.heldTrigger != nil, let last = link.lastChallengeAt else { return false }
            return now - last >= configuration.keepaliveInterval
        }.sorted { $0.id < $1.id }.flatMap { link in
            challenge(link.id, reason: link.heldTrigger ?? "closed by peer", now: now)
        }
    }

    /// Challenges the links at `source` that a connect or accept from it may have superseded:
    /// those with another peer instance ("peer restarted"), and for a connect with a new nonce
    /// also its peripheral links there ("peer reconnected").
    mutating func challengeSuperseded(_ source: UDPEndpoint, instance peerInstance: UInt64, newConnect: Bool,
                                      now: Duration) -> [Action] {
        let stale = links.values.filter { link in
            link.remote == source && (link.peerInstance != peerInstance || (newConnect && link.role == .peripheral))
        }.sorted { $0.id < $1.id }
        return stale.flatMap { link in
            challenge(link.id, reason: link.peerInstance != peerInstance ? "peer restarted" : "peer reconnected", now: now)
        }
    }

    /// Answers a peer's challenge: "still here" when we hold that link with that peer instance, else "gone".
    mutating func answerChallenge(_ datagram: UDPDatagram, from source: UDPEndpoint) -> [Action] {
        guard let value = datagram.challengeValue else { return [] }
        let role: LinkRole = datagram.fromCentral ? .peripheral : .central
        let held = linkID(remote: source, nonce: datagram.linkNonce, role: role).flatMap { links[$0] }
        let verdict: UDPAnswerVerdict = held?.peerInstance == datagram.instance ? .stillHere : .gone
        if verdict == .stillHere, let id = held?.id { links[id]?.peerChallengeValue = value }
        counters.challengesAnswered += 1
        let answer = UDPDatagram(type: .answer, fromCentral: role == .central, instance: instance,
                                 linkNonce: datagram.linkNonce, body: UDPDatagram.answerBody(value, verdict: verdict))
        return [.send(answer, to: source)]
    }

    /// Acts on an answer that echoes the link's outstanding challenge, or a "gone" that echoes its
    /// last challenge (answered before: a stopping peer's proof); any other answer is counted and ignored.
    mutating func receiveAnswer(_ datagram: UDPDatagram, from source: UDPEndpoint, now: Duration) -> [Action] {
        let role: LinkRole = datagram.fromCentral ? .peripheral : .central
        guard let id = linkID(remote: source, nonce: datagram.linkNonce, role: role), let link = links[id],
              let value = datagram.challengeValue, let verdict = datagram.verdict else {
            counters.challengeMismatches += 1
            return []
        }
        if let pending = link.challenge, pending.value == value {
            links[id]?.challenge = nil
            switch verdict {
            case .gone:
                counters.challengesConfirmed += 1
                return removeLink(id, reason: pending.reason, notifyPeer: false, now: now)
            case .stillHere:
                counters.challengesKept += 1
                links[id]?.lastHeard = now
                return []
            }
        }
        guard verdict == .gone, link.lastChallengeValue == value else {
            counters.challengeMismatches += 1
            return []
        }
        counters.challengesConfirmed += 1
        return removeLink(id, reason: "closed by peer", notifyPeer: false, now: now)
    }
}
