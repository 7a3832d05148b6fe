/// How far a mailbox's recipient is from this node now (PROTOCOL.md Part G, "Unreachable").
public enum MailboxReach: Equatable, Sendable {
    /// A neighbour with a ready link: held mail goes to it on that link.
    case linked
    /// A neighbour in its departure grace: the hold queue has its mail for now.
    case inGrace
    /// A node heard through another node within the reach window, `hops` away: a copy goes toward it.
    case heard(hops: UInt8)
    /// Neither: mail for it is deposited.
    case unreachable
}
