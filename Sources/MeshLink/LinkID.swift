/// Identifies one link (one connection in one role) within a node: the transport port it belongs
/// to and the number its transport gave it.
///
/// Each transport numbers its own links (``init(_:)``, on the ``PortID/first`` port); a node
/// that runs several transports puts each behind a port of its own (``PortedTransport``), so two
/// transports' links of the same number are two links.
public struct LinkID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number the link's transport gave it; never reused while the transport runs.
    public let number: UInt64
    /// The transport port the link belongs to.
    public let port: PortID
    /// Creates the ID of a transport's link `number`, on the ``PortID/first`` port.
    public init(_ number: UInt64) { self.init(number, port: .first) }
    /// Creates the ID of link `number` on `port`.
    public init(_ number: UInt64, port: PortID) {
        self.number = number
        self.port = port
    }
    /// The link of the same number on `port`.
    public func on(_ port: PortID) -> LinkID { LinkID(number, port: port) }
    /// `N` on the first port, `P.N` on port P: the link's field in logs (`MESHNODE_LINK`).
    public var label: String { port == .first ? "\(number)" : "\(port.index).\(number)" }
    /// `link#N` on the first port, `link#P.N` on port P, for logs.
    public var description: String { "link#\(label)" }
    /// Orders by port, then by number.
    public static func < (lhs: LinkID, rhs: LinkID) -> Bool { (lhs.port, lhs.number) < (rhs.port, rhs.number) }
}
