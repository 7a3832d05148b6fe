import MeshLink
import MeshProtocol

/// Neighbour bookkeeping: a person (node ID) is not a link.
///
/// A neighbour may hold several links at once, one or more per role. Links are added and
/// removed one at a time; the neighbour stays while any link remains, and for a departure
/// grace after the last one goes, so a link that returns within the grace restores it
/// without a new join. A pure value: no radios, no clocks, time passed in.
public struct NeighbourTable: Sendable {
    /// One neighbour's entry.
    public struct Neighbour: Equatable, Sendable {
        /// The neighbour's node ID.
        public let nodeID: NodeID
        /// Its live links and our role on each.
        public internal(set) var links: [LinkID: LinkRole]
        /// When any valid frame from it last arrived.
        public internal(set) var lastHeard: Duration
        /// When its last link went away, while it is in its departure grace.
        public internal(set) var lostAt: Duration?
    }

    /// What attaching a link did.
    public enum AttachOutcome: Equatable, Sendable {
        /// A neighbour we did not have: announce it.
        case newNeighbour
        /// A neighbour in its departure grace came back: no new join.
        case returned
        /// Another link to a neighbour that already had one.
        case additionalLink
    }

    /// What detaching a link did.
    public enum DetachOutcome: Equatable, Sendable {
        /// The link was not attached to any neighbour.
        case unknownLink
        /// The neighbour keeps its other links.
        case stillLinked(NodeID)
        /// The neighbour lost its last link and entered its departure grace.
        case graceStarted(NodeID)
    }

    /// Neighbours by node ID.
    public private(set) var neighbours: [NodeID: Neighbour] = [:]
    private var owners: [LinkID: NodeID] = [:]
    /// Counts changes of who is a neighbour and which links each has (attach, detach,
    /// departures; not `heard`): a cache of anything derived from them is stale when it moved.
    private(set) var membershipChanges: UInt64 = 0

    /// Creates an empty table.
    public init() {}

    /// The neighbour a link belongs to.
    public func owner(of link: LinkID) -> NodeID? { owners[link] }

    /// Neighbours with at least one live link, sorted by ID.
    public var linkedNeighbours: [NodeID] {
        neighbours.values.filter { !$0.links.isEmpty }.map(\.nodeID).sorted()
    }

    /// Attaches `link` (our `role` on it) to the neighbour `node`.
    public mutating func attach(_ link: LinkID, role: LinkRole, to node: NodeID, now: Duration) -> AttachOutcome {
        membershipChanges &+= 1
        if let previous = owners[link], previous != node { _ = detach(link, now: now) }
        owners[link] = node
        guard var entry = neighbours[node] else {
            neighbours[node] = Neighbour(nodeID: node, links: [link: role], lastHeard: now, lostAt: nil)
            return .newNeighbour
        }
        let wasInGrace = entry.links.isEmpty
        entry.links[link] = role
        entry.lostAt = nil
        entry.lastHeard = now
        neighbours[node] = entry
        return wasInGrace ? .returned : .additionalLink
    }

    /// Detaches `link`; the neighbour stays while it has other links.
    public mutating func detach(_ link: LinkID, now: Duration) -> DetachOutcome {
        guard let node = owners.removeValue(forKey: link), var entry = neighbours[node] else { return .unknownLink }
        membershipChanges &+= 1
        entry.links[link] = nil
        if entry.links.isEmpty {
            entry.lostAt = now
            neighbours[node] = entry
            return .graceStarted(node)
        }
        neighbours[node] = entry
        return .stillLinked(node)
    }

    /// Notes that `node` was heard from at `now`.
    public mutating func heard(_ node: NodeID, now: Duration) {
        neighbours[node]?.lastHeard = now
    }

    /// The link to send on: a live link where we are central (we write to the neighbour's
    /// characteristic, which reaches only that neighbour), else any live link; lowest ID wins ties.
    public func bestLink(to node: NodeID) -> LinkID? {
        guard let links = neighbours[node]?.links, !links.isEmpty else { return nil }
        return links.min { lhs, rhs in
            if (lhs.value == .central) != (rhs.value == .central) { return lhs.value == .central }
            return lhs.key < rhs.key
        }?.key
    }

    /// Neighbours silent for `grace` while linked: their links should be closed.
    public func silent(now: Duration, grace: Duration) -> [NodeID] {
        neighbours.values.filter { !$0.links.isEmpty && now - $0.lastHeard >= grace }.map(\.nodeID).sorted()
    }

    /// Removes and returns neighbours whose departure grace has run out.
    public mutating func departures(now: Duration, grace: Duration) -> [NodeID] {
        let gone = neighbours.values.filter { entry in
            guard let lostAt = entry.lostAt else { return false }
            return now - lostAt >= grace
        }.map(\.nodeID).sorted()
        for node in gone { neighbours[node] = nil }
        if !gone.isEmpty { membershipChanges &+= 1 }
        return gone
    }
}
