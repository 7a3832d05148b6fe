import Fragmenter
import MeshLink
import MeshProtocol

/// A link as the engine sees it, for `relayctl peers`.
public struct LinkSnapshot: Equatable, Sendable {
    /// What the transport reported.
    public var info: LinkInfo
    /// Where the link is in its life.
    public var phase: LinkPhase
    /// The neighbour on the link, once its key exchange verified.
    public var neighbour: NodeID?
}

/// A neighbour with its links.
public struct NeighbourSnapshot: Equatable, Sendable {
    /// The neighbour's node ID.
    public var nodeID: NodeID
    /// Its verified profile.
    public var profile: Profile?
    /// Its live links.
    public var links: [LinkSnapshot]
    /// When it was last heard, in engine time.
    public var lastHeard: Duration
    /// True while it has no link and is within its departure grace.
    public var inGrace: Bool
}

/// A node beyond the neighbours.
public struct RemoteNodeSnapshot: Equatable, Sendable {
    /// Its node ID.
    public var nodeID: NodeID
    /// Its profile, when a join notice carried one.
    public var profile: Profile?
    /// Hops between it and us when last heard.
    public var hops: UInt8
    /// When it was last heard, in engine time.
    public var lastHeard: Duration
}

extension MeshEngine {
    /// Every link, ready or not, sorted by ID.
    public func linkSnapshots() -> [LinkSnapshot] {
        links.all.sorted { $0.info.id < $1.info.id }.map {
            LinkSnapshot(info: $0.info, phase: $0.phase, neighbour: $0.neighbour)
        }
    }

    /// What the transport last said about a link (MTU and signal strength kept current).
    public func linkInfo(_ link: LinkID) -> LinkInfo? { links[link]?.info }

    /// Every neighbour, including those in their departure grace, sorted by ID.
    public func neighbourSnapshots() -> [NeighbourSnapshot] {
        let allLinks = linkSnapshots()
        return neighbours.table.neighbours.values.sorted { $0.nodeID < $1.nodeID }.map { entry in
            NeighbourSnapshot(
                nodeID: entry.nodeID, profile: neighbours.profile(of: entry.nodeID),
                links: allLinks.filter { entry.links[$0.info.id] != nil }, lastHeard: entry.lastHeard,
                inGrace: entry.links.isEmpty)
        }
    }

    /// Nodes known beyond the neighbours, nearest first.
    public func remoteNodeSnapshots() -> [RemoteNodeSnapshot] {
        knownNodes.entries.filter { neighbours.table.neighbours[$0.key] == nil && $0.key != nodeID }
            .map { RemoteNodeSnapshot(nodeID: $0.key, profile: $0.value.profile, hops: $0.value.hops, lastHeard: $0.value.lastHeard) }
            .sorted { ($0.hops, $0.nodeID) < ($1.hops, $1.nodeID) }
    }

    /// Fragmenter counters summed over every link.
    public var fragmenterCounters: FragmenterCounters { links.fragmenterCounters }

    /// Bytes held in reassembly buffers.
    public var bufferedFragmentBytes: Int { links.bufferedFragmentBytes }

    /// Envelopes held for neighbours without a ready link.
    public var heldMessageCount: Int { neighbours.held.count }

    /// Encoded bytes held for neighbours without a ready link.
    public var heldBytes: Int { neighbours.held.totalBytes }

    /// How many message IDs the seen cache holds.
    public var seenCacheSize: Int { router.seen.size }

    /// Remote nodes forgotten before their lifetime because the known-node table was full.
    public var knownNodeEvictions: UInt64 { knownNodes.evictions }
}
