import MeshCrypto
import MeshLink

/// Cover packets (PROTOCOL.md D14, `[privacy] cover_interval`): on each opaque link, packets
/// that carry nothing at times of a Poisson process, whatever the real traffic.
extension MeshEngine {
    /// Draws `link`'s next cover time, a random gap after `from`.
    func rescheduleCover(on link: LinkID, from: Duration) {
        let gap = CoverSchedule.gap(mean: configuration.coverInterval, random: &random)
        links.withLink(link) { $0.coverDue = from + gap }
    }

    /// Sends a cover packet on every opaque link whose cover time has come. A link with packets
    /// waiting for credit (D12) is busy: its cover is skipped, never queued, and never tracked.
    func sendDueCover(now: Duration) {
        guard configuration.coverInterval > .zero, configuration.opaquePackets else { return }
        for link in links.sortedIDs {
            guard let state = links[link], case .ready(let keyed) = state.stage, keyed.peerSendsOpaque else { continue }
            guard let due = state.coverDue else {
                rescheduleCover(on: link, from: now)
                continue
            }
            guard due <= now else { continue }
            rescheduleCover(on: link, from: due)
            guard state.delivery.waitingCount == 0 else { continue }
            let body = [UInt8](repeating: 0, count: keyed.recentOpaqueBodies.draw(random: &random))
            let packet: [UInt8]?
            do {
                packet = try links.withLink(link) { (state) throws(CryptoError) in
                    try state.withKeyed { (keyed) throws(CryptoError) in
                        try keyed.session.sealOpaque(kind: LinkSession.coverKind, plaintext: body)
                    }
                } ?? nil
            } catch {
                links.increment(\.sealFailures)
                continue
            }
            guard let packet else { continue }
            if sendFrames(of: packet, kindByte: LinkSession.opaqueFrameKind, on: link, now: now, noting: (LinkSession.coverKind, nil)) {
                links.increment(\.coverSent)
            }
        }
    }
}
