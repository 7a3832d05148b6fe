import MeshLink

/// Neighbours found by LAN discovery: dialled like configured ones until discovery forgets them.
extension UDPLinkTable {
    /// Whether a link to `endpoint` is up, in either role.
    func isLinked(_ endpoint: UDPEndpoint) -> Bool {
        links.values.contains { $0.remote == endpoint }
    }

    /// Dials `endpoint` from now on, at once; nothing changes if it is a neighbour already.
    mutating func addDiscovered(_ endpoint: UDPEndpoint, now: Duration) {
        guard !neighbours.contains(where: { $0.endpoint == endpoint }) else { return }
        neighbours.append(Neighbour(endpoint: endpoint, state: .connecting(nonce: random.next(), nextAttempt: now), discovered: true))
    }

    /// Stops dialling a discovered neighbour that has no link; configured ones and linked ones stay.
    mutating func forgetDiscovered(_ endpoint: UDPEndpoint) {
        neighbours.removeAll { neighbour in
            guard neighbour.endpoint == endpoint, neighbour.discovered, case .connecting = neighbour.state else { return false }
            return true
        }
    }
}
