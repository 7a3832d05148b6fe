import MeshProtocol

/// Counters for every kind.
public struct FloodCounters: Equatable, Sendable {
    /// Indexed by the kind byte: a subscript is an array index, not a dictionary look-up (the
    /// relay path reads and writes these several times per message).
    private var byKind = [KindCounters](
        repeating: KindCounters(), count: Int(MessageKind.allCases.map(\.rawValue).max() ?? 0) + 1)

    /// Creates zeroed counters.
    public init() {}

    /// The counters of one kind.
    public subscript(kind: MessageKind) -> KindCounters {
        get { byKind[Int(kind.rawValue)] }
        set { byKind[Int(kind.rawValue)] = newValue }
    }
}
