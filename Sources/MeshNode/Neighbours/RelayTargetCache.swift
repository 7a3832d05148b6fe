import MeshProtocol

/// The engine's relay targets and ready-neighbour count, as of one state of the neighbour
/// table and the profiles: both are asked for on every relayed message, and change only when
/// a link attaches or detaches, a neighbour departs or a profile arrives or goes.
struct RelayTargetCache {
    /// `(NeighbourTable.membershipChanges, MeshEngine.profileChanges)` when this was made;
    /// nil before the first use.
    var version: (UInt64, UInt64)? = nil
    /// Neighbours with a verified profile (ready, or in their departure grace), sorted by ID.
    var targets: [NodeID] = []
    /// Of those, how many have a live link.
    var readyCount = 0
}
