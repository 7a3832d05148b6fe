/// Identifies one transport port of a node: the place a transport's links enter it. A node that runs
/// one transport runs it on ``first``; each further transport gets a port of its own
/// (``PortedTransport``), which keeps its link numbers apart from the others'.
public struct PortID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The port's index within the node.
    public let index: UInt8
    /// Creates the ID of port `index`.
    public init(_ index: UInt8) { self.index = index }
    /// The port of a node's first (or only) transport; the one transports number their links on.
    public static let first = PortID(0)
    /// `port#N`, for logs.
    public var description: String { "port#\(index)" }
    /// Orders by index.
    public static func < (lhs: PortID, rhs: PortID) -> Bool { lhs.index < rhs.index }
}
