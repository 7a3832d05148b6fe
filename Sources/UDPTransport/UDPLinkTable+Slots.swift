import MeshLink

/// Slots: unkeyed links never lock keyed neighbours out.
///
/// The engine decides which links to admit (its `LinkAdmission` sees every transport's links and
/// closes what it refuses); this table only keeps a connect from being refused while a slot is
/// held by a link that has no keys. When every slot is taken, a connect displaces the oldest
/// unkeyed link from an address that was not keyed lately; a connect from such a remembered
/// address (or a configured neighbour) may also displace the oldest unkeyed remembered one.
extension UDPLinkTable {
    /// Records that the engine keyed `id`; its address is remembered as a neighbour's.
    mutating func markKeyed(_ id: LinkID, now: Duration) {
        guard let link = links[id] else { return }
        links[id]?.keyed = true
        keyedEndpoints.note(link.remote, now: now)
    }

    /// Frees one slot for a connect from `source` when the table is full, if an unkeyed link may go.
    mutating func makeRoom(for source: UDPEndpoint, now: Duration) -> [Action] {
        guard links.count >= configuration.maxLinks else { return [] }
        let remembered = keyedEndpoints.contains(source, now: now)
        let unkeyed = links.values.filter { !$0.keyed }.sorted { ($0.openedAt, $0.id) < ($1.openedAt, $1.id) }
        let victim = unkeyed.first { !keyedEndpoints.contains($0.remote, now: now) } ?? (remembered ? unkeyed.first : nil)
        guard let victim else { return [] }
        counters.displacedUnkeyed += 1
        return removeLink(victim.id, reason: "displaced by a new link (unkeyed, all slots taken)", notifyPeer: true, now: now)
    }

    /// The link with this address, nonce and role.
    func linkID(remote: UDPEndpoint, nonce: UInt64, role: LinkRole) -> LinkID? {
        keys[LinkKey(remote: remote, nonce: nonce, role: role)]
    }
}
