import Flooding
import MeshLink
import MeshProtocol

/// The engine's neighbours and what it holds for them, as one value that owns its state: who
/// is linked and how (``NeighbourTable``), their verified profiles, the relay targets worked out
/// from both, and the envelopes held for neighbours in their departure grace (``HoldQueue``).
/// The engine asks it and performs what it answers.
struct Neighbours {
    /// Where an envelope for one neighbour goes.
    enum Route: Equatable {
        /// Send it on the neighbour's best link.
        case link(LinkID)
        /// Held until the neighbour has a ready link again.
        case held
        /// Neither: the neighbour has no link, and the envelope is not held (kind or budget).
        case nowhere
    }

    /// A neighbour whose departure grace ended, with what was held for it.
    struct Departure {
        /// The neighbour that left.
        let node: NodeID
        /// The envelopes held for it, oldest first.
        let held: [Envelope]
    }

    /// Neighbours and their links.
    private(set) var table = NeighbourTable()
    /// The verified profile of each neighbour that sent one.
    private(set) var profiles: [NodeID: Profile] = [:]
    /// Counts changes of `profiles` (see ``RelayTargetCache``).
    private var profileChanges: UInt64 = 0
    private var relayTargetCache = RelayTargetCache()
    /// Envelopes for neighbours in their departure grace.
    private(set) var held: HoldQueue

    /// Creates an empty set of neighbours holding within `hold`.
    init(hold: HoldLimits) { held = HoldQueue(limits: hold) }

    /// The verified profile of neighbour `node`, if it sent one.
    func profile(of node: NodeID) -> Profile? { profiles[node] }

    /// Records `node`'s verified profile.
    mutating func verified(_ profile: Profile, of node: NodeID) { setProfile(profile, of: node) }

    /// Attaches a link that became ready to its neighbour.
    mutating func attach(_ link: LinkID, role: LinkRole, to node: NodeID, now: Duration) -> NeighbourTable.AttachOutcome {
        table.attach(link, role: role, to: node, now: now)
    }

    /// Detaches a link that went down or changed identity.
    mutating func detach(_ link: LinkID, now: Duration) -> NeighbourTable.DetachOutcome { table.detach(link, now: now) }

    /// Notes that `node` was heard at `now`.
    mutating func heard(_ node: NodeID, now: Duration) { table.heard(node, now: now) }

    /// A neighbour's best ready link, or nil when it has none.
    func bestLink(to node: NodeID) -> LinkID? { table.bestLink(to: node) }

    /// True while `link` is one of `node`'s links.
    func isLink(_ link: LinkID, of node: NodeID) -> Bool { table.neighbours[node]?.links[link] != nil }

    /// Neighbours whose profile is verified and that have a live keyed link.
    func ready() -> [NodeID] { table.linkedNeighbours.filter { profiles[$0] != nil } }

    /// Neighbours that messages and join notices are addressed to: the ready ones and those in
    /// their departure grace (their copies are held), sorted by ID. Worked out again only when
    /// the neighbours or profiles changed, not once per message.
    mutating func relayTargets() -> [NodeID] {
        refreshRelayTargets()
        return relayTargetCache.targets
    }

    /// How many neighbours ``ready()`` lists, kept with the relay targets.
    mutating func readyCount() -> Int {
        refreshRelayTargets()
        return relayTargetCache.readyCount
    }

    /// Where `envelope` for `neighbour` goes: its best link, else (a message or join notice,
    /// inside the neighbour's departure grace) the hold queue.
    mutating func route(_ envelope: Envelope, to neighbour: NodeID, now: Duration) -> Route {
        if let link = table.bestLink(to: neighbour) { return .link(link) }
        guard envelope.kind == .message || envelope.kind == .joinNotice else { return .nowhere }
        return held.hold(envelope, for: neighbour, now: now) ? .held : .nowhere
    }

    /// Takes out what was held for `neighbour`, now that it has a ready link again.
    mutating func release(for neighbour: NodeID, now: Duration) -> [Envelope] { held.release(for: neighbour, now: now) }

    /// Counts held envelopes sent once their neighbour came back.
    mutating func recordSentLate(_ count: Int) { held.recordSentLate(count) }

    /// Counts envelopes sent again (or held) after a link went down.
    mutating func recordResent(_ count: Int) { held.recordResent(count) }

    /// Ends the departure grace of every neighbour whose grace is over: forgets its profile and
    /// hands back what was held for it.
    mutating func departures(now: Duration, grace: Duration) -> [Departure] {
        table.departures(now: now, grace: grace).map { node in
            setProfile(nil, of: node)
            return Departure(node: node, held: held.discard(for: node))
        }
    }

    /// The links of neighbours silent for longer than `grace`, to close: by neighbour, each's sorted.
    func silentLinks(now: Duration, grace: Duration) -> [LinkID] {
        table.silent(now: now, grace: grace).flatMap { node in
            table.neighbours[node].map { Array($0.links.keys).sorted() } ?? []
        }
    }

    /// Drops held envelopes past their lifetime.
    mutating func expireHeld(now: Duration) { held.expire(now: now) }

    private mutating func setProfile(_ profile: Profile?, of node: NodeID) {
        profiles[node] = profile
        profileChanges &+= 1
    }

    private mutating func refreshRelayTargets() {
        let version = (table.membershipChanges, profileChanges)
        if let cached = relayTargetCache.version, cached == version { return }
        var targets: [NodeID] = []
        var ready = 0
        for entry in table.neighbours.values where profiles[entry.nodeID] != nil {
            targets.append(entry.nodeID)
            if !entry.links.isEmpty { ready += 1 }
        }
        targets.sort()
        relayTargetCache = RelayTargetCache(version: version, targets: targets, readyCount: ready)
    }
}
