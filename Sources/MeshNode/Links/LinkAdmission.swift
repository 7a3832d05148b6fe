import MeshLink
import MeshProtocol

/// Which links may hold a slot while they have no link keys: a pure value on injected time.
///
/// Anyone in range can open links, and a link without keys costs the opener nothing, so unkeyed
/// links get a budget of their own (`maxUnkeyedLinks`, all transports together, and
/// `maxUnkeyedPerTransport` on each), a budget per address (per host on UDP), and a short
/// deadline. When the budget is full the oldest unkeyed link of a **stranger** goes (from the
/// transport holding the most), but not for another stranger's link on its own transport while it
/// is younger than `evictionGrace`: then the newcomer is refused, so strangers starting at once
/// (a dense room at power-on) do not close each other's handshakes forever. A link from an
/// address that was a keyed neighbour's lately (a **returning** neighbour) is closed only to make
/// room for another returning one, and a returning neighbour's link displaces a stranger's of any age. Keyed links
/// are never touched here. Every link that gets keys has its address remembered (for
/// `neighbourMemory`), so a neighbour whose address changed (BLE privacy) is a stranger only
/// until its first key exchange on the new address.
public struct LinkAdmission: Sendable {
    /// What to do with a new link.
    public enum Decision: Equatable, Sendable {
        /// Admit it, after closing these unkeyed links (oldest first).
        case admit(closing: [LinkID])
        /// Close it at once: it is a stranger's, and every unkeyed slot is held by a returning
        /// neighbour or by a stranger's link on its transport still within `evictionGrace`.
        case refuse
    }

    private struct Unkeyed: Sendable {
        let id: LinkID
        let address: String
        /// What the per-address limit counts by.
        let host: String
        let openedAt: Duration
        let returning: Bool
    }

    /// The limits in force.
    public let limits: LinkAdmissionLimits
    /// What was decided so far.
    public private(set) var counters = AdmissionCounters()
    private var unkeyed: [LinkID: Unkeyed] = [:]
    private var addresses: NeighbourMemory<String>

    /// Creates an empty admission with `limits`.
    public init(limits: LinkAdmissionLimits = LinkAdmissionLimits()) {
        self.limits = limits
        addresses = NeighbourMemory(capacity: limits.rememberedNeighbours, lifetime: limits.neighbourMemory)
    }

    /// The links without keys now.
    public var unkeyedLinks: Set<LinkID> { Set(unkeyed.keys) }

    /// True when `address` belonged to a keyed neighbour within the memory.
    public func isReturning(address: String, now: Duration) -> Bool { addresses.contains(address, now: now) }

    /// Decides on a new link from `address`; an admitted link counts as unkeyed until `keyed`.
    /// The per-address limit counts by `host` (``LinkInfo/admissionAddress``; `address` when nil),
    /// the returning-neighbour memory by `address`.
    public mutating func admit(_ link: LinkID, address: String, host: String? = nil, now: Duration) -> Decision {
        let returning = isReturning(address: address, now: now)
        let host = host ?? address
        var closing: [LinkID] = []
        let sameHost = oldestFirst(unkeyed.values.filter { $0.host == host })
        if sameHost.count >= limits.maxUnkeyedPerAddress, let victim = sameHost.first {
            closing.append(victim.id)
            counters.evictedSameAddress += 1
        }
        // A transport's own budget matters only below the overall one (a node of one transport).
        if let transportLimit = limits.maxUnkeyedPerTransport[link.port.index], transportLimit < limits.maxUnkeyedLinks {
            let sameTransport = oldestFirst(unkeyed.values.filter { $0.id.port == link.port && !closing.contains($0.id) })
            if sameTransport.count >= max(1, transportLimit) {
                guard let victim = victim(among: sameTransport, for: link, returning: returning, now: now) else {
                    counters.refusedFull += 1
                    return .refuse
                }
                closing.append(victim.id)
                counters.evictedTransportFull += 1
            }
        }
        let remaining = unkeyed.values.filter { !closing.contains($0.id) }
        if remaining.count >= limits.maxUnkeyedLinks {
            // The transport holding the most unkeyed links gives one up first: a flood on one
            // transport evicts its own links, not another transport's handshakes.
            let perPort = Dictionary(grouping: remaining, by: \.id.port)
            let busiest = perPort.max { ($0.value.count, $1.key) < ($1.value.count, $0.key) }?.key
            let candidates = oldestFirst(remaining.filter { $0.id.port == busiest }) + oldestFirst(remaining.filter { $0.id.port != busiest })
            guard let victim = victim(among: candidates, for: link, returning: returning, now: now) else {
                counters.refusedFull += 1
                return .refuse
            }
            closing.append(victim.id)
            counters.evictedOldest += 1
        }
        for id in closing { unkeyed[id] = nil }
        unkeyed[link] = Unkeyed(id: link, address: address, host: host, openedAt: now, returning: returning)
        counters.admitted += 1
        if returning { counters.admittedReturning += 1 }
        return .admit(closing: closing)
    }

    /// The first stranger's link in `candidates`, unless it is on `newcomer`'s transport and
    /// younger than the grace while the newcomer is a stranger too; a returning neighbour's link
    /// displaces the first stranger's of any age, else the first returning one's.
    private func victim(among candidates: [Unkeyed], for newcomer: LinkID, returning: Bool, now: Duration) -> Unkeyed? {
        if returning { return candidates.first(where: { !$0.returning }) ?? candidates.first }
        guard let oldest = candidates.first(where: { !$0.returning }) else { return nil }
        if oldest.id.port == newcomer.port, now - oldest.openedAt < limits.evictionGrace { return nil }
        return oldest
    }

    /// Records the link's first keys: it leaves the unkeyed budget, and its address is
    /// remembered as a keyed neighbour's.
    public mutating func keyed(_ link: LinkID, address: String, now: Duration) {
        unkeyed[link] = nil
        addresses.note(address, now: now)
    }

    /// Forgets a link that went down.
    public mutating func removed(_ link: LinkID) { unkeyed[link] = nil }

    /// Strangers' unkeyed links past the key deadline, to close; they are forgotten here.
    public mutating func overdue(now: Duration) -> [LinkID] {
        let late = oldestFirst(unkeyed.values.filter { !$0.returning && now - $0.openedAt >= limits.keyDeadline }).map(\.id)
        for id in late { unkeyed[id] = nil }
        counters.keyDeadlineCloses += UInt64(late.count)
        return late
    }

    private func oldestFirst(_ links: [Unkeyed]) -> [Unkeyed] {
        links.sorted { ($0.openedAt, $0.id) < ($1.openedAt, $1.id) }
    }
}
