/// What happened to one envelope addressed to one neighbour.
enum NeighbourDelivery: Equatable {
    /// Sealed and handed to the transport on a ready link.
    case sent
    /// Held until a link to the neighbour is ready again.
    case held
    /// Neither (the link could not seal or split it, or the hold limits allow nothing).
    case notSent
}
