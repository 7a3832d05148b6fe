import MeshProtocol

/// One key request as its answers name it: who asked, with which tag, for whom.
public struct KeyRequestKey: Hashable, Sendable {
    /// The node that sent the request (its envelope's origin; the answer's destination).
    public var requester: NodeID
    /// The request's tag.
    public var tag: UInt64

    /// Creates a key.
    public init(requester: NodeID, tag: UInt64) {
        self.requester = requester
        self.tag = tag
    }
}
