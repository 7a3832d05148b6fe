import MeshProtocol

/// Counters for every kind.
public struct FloodCounters: Equatable, Sendable {
    private var byKind: [MessageKind: KindCounters] = [:]

    /// Creates zeroed counters.
    public init() {}

    /// The counters of one kind.
    public subscript(kind: MessageKind) -> KindCounters {
        get { byKind[kind] ?? KindCounters() }
        set { byKind[kind] = newValue }
    }
}
