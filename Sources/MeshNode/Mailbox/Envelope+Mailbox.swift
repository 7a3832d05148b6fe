import MeshProtocol

extension Envelope {
    /// The copy a mailbox sends of a held envelope (PROTOCOL.md Part G, G2): route cut to
    /// `[origin, mailbox]` with hops 1, or `[mailbox]` with hops 0 for the mailbox's own message;
    /// everything signed stays as it is.
    public func handedOver(byMailbox mailbox: NodeID) -> Envelope {
        var copy = self
        copy.route = origin == mailbox ? [mailbox] : [origin, mailbox]
        copy.hops = UInt8(copy.route.count - 1)
        return copy
    }
}
