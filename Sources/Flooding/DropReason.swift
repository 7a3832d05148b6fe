import MeshProtocol

/// Why a received envelope was not accepted.
public enum DropReason: String, Sendable, CaseIterable {
    /// Its message ID is in the seen cache.
    case seen
    /// Our own node ID is already on its route (or we are its origin).
    case looped
    /// It has travelled as far as its kind's hop limit allows.
    case ttlSpent
    /// Its signed timestamp lies outside the window the seen cache can vouch for (too old,
    /// or too far ahead of our clock): a copy seen before could have been forgotten.
    case stale
    /// Its route cannot be what the neighbour that sent it was handed: not the origin first, not
    /// `hops + 1` entries, a node twice, or not that neighbour last (an edited copy).
    case badRoute = "bad_route"
}
