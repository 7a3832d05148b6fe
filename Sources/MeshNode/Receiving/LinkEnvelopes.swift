import Flooding
import MeshCrypto
import MeshLink
import MeshProtocol

/// What a neighbour sends over its own link: profiles and heartbeats end here; what floods
/// enters the receive path (``MeshEngine/flood(_:from:via:now:)``).
extension MeshEngine {
    /// Handles an envelope that came out of a link seal on `link`, keyed with `sender`.
    func receiveEnvelope(_ envelope: Envelope, from sender: NodeID, on link: LinkID, now: Duration) {
        switch envelope.kind {
        case .profile:
            receiveProfile(envelope, from: sender, on: link, now: now)
        case .heartbeat:
            guard links[link]?.phase == .ready, envelope.hops == 0, envelope.origin == sender else {
                drop(envelope, cause: .foreignHeartbeat, from: .link(link), counter: \.droppedUnverifiable)
                return
            }
            kindCounters[.heartbeat].delivered += 1
            hearClock(envelope, from: sender, now: now)
        case .keyExchange:
            drop(envelope, cause: .sealedKeyExchange, from: .link(link), counter: \.droppedMalformed)
        case .message, .joinNotice, .keyRequest, .keyAnswer:
            // A keyed link already proves who the sender is. The neighbour may count the link
            // ready before we do (its profile has not reached us yet): what it sends in that
            // window is accepted, never lost.
            flood(envelope, from: sender, via: .link(link), now: now)
        }
    }

    private func receiveProfile(_ envelope: Envelope, from sender: NodeID, on link: LinkID, now: Duration) {
        let profile: Profile
        do {
            profile = try ProfileVerifier.verify(envelope)
            guard profile.nodeID == sender, envelope.hops == 0 else { throw WireError.invalidField("profile sender") }
        } catch {
            drop(envelope, cause: .profile("\(error)"), from: .link(link), counter: \.droppedUnverifiable)
            return
        }
        kindCounters[.profile].delivered += 1
        neighbours.verified(profile, of: sender)
        keepSignedProfile(envelope, of: sender)
        hearClock(envelope, from: sender, now: now)
        guard let state = links[link] else { return }
        switch state.stage {
        case .keying:
            return
        case .ready:
            // The neighbour sends its profile again only while it lacks ours: ours was lost.
            resendProfile(on: link, now: now)
            return
        case .awaitingProfile(let keyed):
            links.withLink(link) { $0.stage = .ready(keyed) }
            links.withLink(link) { $0.readyAt = now }
        }
        switch neighbours.attach(link, role: state.info.role, to: sender, now: now) {
        case .newNeighbour:
            emit(.neighbourJoined(profile))
            pacing.neighbourJoined()
            catchUpOnJoinNotices(sender, now: now)
        case .returned:
            emit(.neighbourReturned(sender))
        case .additionalLink:
            break
        }
        releaseHeld(for: sender, now: now)
    }

    /// Sends a brand-new neighbour the join notices relayed in the last 30 s: one that passed
    /// a moment before this link was ready would otherwise never reach it.
    private func catchUpOnJoinNotices(_ neighbour: NodeID, now: Duration) {
        var sent = 0
        for envelope in recentJoins.catchUp(for: neighbour, now: now) where sendEnvelope(envelope, to: neighbour, now: now) {
            sent += 1
        }
        kindCounters[.joinNotice].relayed += UInt64(sent)
    }
}
