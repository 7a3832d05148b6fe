import MeshLink

extension MeshEngine {
    /// Counters of link admission: budgets, evictions and key deadlines.
    public var admissionCounters: AdmissionCounters { links.admissionCounters }

    /// Applies `LinkAdmission` to a new link: closes what it evicts, and the link itself if refused.
    /// Returns whether the link may start its handshake.
    func admit(_ info: LinkInfo, now: Duration) -> Bool {
        switch links.admit(info, now: now) {
        case .refuse:
            actions.append(.disconnect(info.id))
            return false
        case .admit(let closing):
            for link in closing { close(link, now: now) }
            return true
        }
    }

    /// Closes strangers' links that have no link keys by the key deadline: a handshake timeout
    /// that comes sooner (counted in `handshakeTimeouts` too).
    func closeLinksPastKeyDeadline(now: Duration) {
        for link in links.pastKeyDeadline(now: now) {
            links.increment(\.handshakeTimeouts)
            emit(.handshakeTimedOut(link))
            close(link, now: now)
        }
    }

    private func close(_ link: LinkID, now: Duration) {
        linkDown(link, now: now)
        actions.append(.disconnect(link))
    }
}
