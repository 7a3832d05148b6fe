import MeshProtocol

extension Envelope {
    /// True when the route is one the relay rules produce for a copy that `neighbour` hands
    /// over (docs/PROTOCOL.md Part C, step 0): the origin first, one entry per hop
    /// (`hops + 1` entries), no node twice, and the neighbour itself last, since every relay
    /// appends its own ID and the origin sends `[origin]` with 0 hops.
    ///
    /// The link seal proves which neighbour sent the copy; a route that disagrees with it was
    /// edited, so nothing in it can be believed.
    public func routeFits(handedOverBy neighbour: NodeID) -> Bool {
        guard route.count == Int(hops) + 1, route.first == origin, route.last == neighbour else { return false }
        for index in route.indices.dropFirst() where route[..<index].contains(route[index]) { return false }
        return true
    }
}
