import ControlProtocol
import MeshLink
import MeshNode
import MeshProtocol

/// Structured fields of a log record; each becomes a `MESHNODE_*` journal field.
///
/// There is deliberately no field for chat text: message contents never reach the logs.
public struct LogFields: Equatable, Sendable {
    /// The other node involved: a neighbour, a message's origin or destination (`MESHNODE_PEER`:
    /// the journal field, a public contract, keeps its older word; docs/ARCHITECTURE.md, "Glossary").
    public var otherNode: NodeID?
    /// The envelope kind (`MESHNODE_KIND`).
    public var kind: MessageKind?
    /// Hops so far (`MESHNODE_HOPS`).
    public var hops: Int?
    /// The message ID (`MESHNODE_MESSAGE_ID`), to follow one message through the mesh.
    public var messageID: MessageID?
    /// The transport link (`MESHNODE_LINK`).
    public var link: LinkID?
    /// A remote transport address (`MESHNODE_ADDRESS`).
    public var address: String?
    /// A short machine-readable reason (`MESHNODE_REASON`), such as `duplicate` or `timeout`.
    public var reason: String?

    /// Creates fields; leave out what does not apply.
    public init(
        otherNode: NodeID? = nil, kind: MessageKind? = nil, hops: Int? = nil, messageID: MessageID? = nil,
        link: LinkID? = nil, address: String? = nil, reason: String? = nil
    ) {
        self.otherNode = otherNode
        self.kind = kind
        self.hops = hops
        self.messageID = messageID
        self.link = link
        self.address = address
        self.reason = reason
    }

    /// The fields as `(NAME, value)` pairs, in a fixed order.
    public var pairs: [(String, String)] {
        var pairs: [(String, String)] = []
        if let otherNode { pairs.append(("MESHNODE_PEER", otherNode.hex)) }
        if let kind { pairs.append(("MESHNODE_KIND", kind.description)) }
        if let hops { pairs.append(("MESHNODE_HOPS", String(hops))) }
        if let messageID { pairs.append(("MESHNODE_MESSAGE_ID", messageID.hex)) }
        if let link { pairs.append(("MESHNODE_LINK", link.label)) }
        if let address { pairs.append(("MESHNODE_ADDRESS", address)) }
        if let reason { pairs.append(("MESHNODE_REASON", reason)) }
        return pairs
    }
}
