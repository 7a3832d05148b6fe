/// What role a node plays in the mesh, as shown to people nearby.
public enum NodeRole: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// A person's phone or laptop.
    case person = 0
    /// A headless relay node such as MeshNode.
    case relay = 1

    /// A lowercase name for tables and JSON.
    public var description: String { self == .person ? "person" : "relay" }
}
