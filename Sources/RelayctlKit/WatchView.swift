import ControlProtocol
import MeshProtocol

/// What `relayctl watch` knows while it prints events: this node, the names of nodes, and which
/// address and node each link leads to. Filled from `status` and `peers`, then from the events.
public struct WatchView: Equatable, Sendable {
    /// Where a link leads.
    public struct Link: Equatable, Sendable {
        /// The link's address (`127.0.0.1:7002`, a Bluetooth address).
        public var address: String
        /// The neighbour on it, once known.
        public var node: NodeID?

        /// Creates a link entry.
        public init(address: String, node: NodeID?) {
            self.address = address
            self.node = node
        }
    }

    /// Names a link: its transport (nil from older daemons) and its number within it.
    public struct LinkKey: Hashable, Sendable {
        /// The link's transport.
        public var transport: String?
        /// The link's number within its transport.
        public var link: UInt64

        /// Creates a key.
        public init(transport: String?, link: UInt64) {
            self.transport = transport
            self.link = link
        }
    }

    /// This node; a direct message to it is shown as `→ me`.
    public var me: NodeID?
    /// Display names by node.
    public var names: [NodeID: String] = [:]
    /// Live links by transport and link ID.
    public var links: [LinkKey: Link] = [:]
    /// Senders without a name that `peers` was asked about already (once each).
    public var askedAbout: Set<NodeID> = []

    /// An empty view.
    public init(me: NodeID? = nil) { self.me = me }

    /// Learns names and links from a `peers` result (keeping addresses already known).
    public mutating func learn(_ peers: PeersReport) {
        for neighbour in peers.neighbours {
            guard let node = NodeID(hex: neighbour.nodeID) else { continue }
            if let name = neighbour.name { names[node] = name }
            for link in neighbour.links {
                links[LinkKey(transport: link.transport, link: link.linkID)] = Link(address: link.address, node: node)
            }
        }
        for remote in peers.remote {
            if let node = NodeID(hex: remote.nodeID), let name = remote.name { names[node] = name }
        }
    }

    /// `a0a1a2a3 Kitchen` when the name is known, else the short ID.
    public func label(_ node: NodeID) -> String {
        names[node].map { "\(node.shortID) \($0)" } ?? node.shortID
    }
}
