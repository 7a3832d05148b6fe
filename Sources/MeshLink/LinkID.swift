/// Identifies one link (one connection in one role) within a transport.
public struct LinkID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The transport-assigned number; never reused while the transport runs.
    public let rawValue: UInt64
    /// Creates a link ID.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    /// `link#N`, for logs.
    public var description: String { "link#\(rawValue)" }
    /// Orders by number.
    public static func < (lhs: LinkID, rhs: LinkID) -> Bool { lhs.rawValue < rhs.rawValue }
}
