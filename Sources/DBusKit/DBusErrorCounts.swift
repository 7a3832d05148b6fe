/// How many D-Bus errors of each kind were seen.
public struct DBusErrorCounts: Equatable, Sendable {
    /// Count per error kind; kinds never seen are absent.
    public private(set) var byKind: [DBusError.Kind: Int] = [:]

    /// Creates empty counts.
    public init() {}

    /// Counts one error.
    public mutating func record(_ error: DBusError) { byKind[error.kind, default: 0] += 1 }

    /// The count for one kind.
    public subscript(kind: DBusError.Kind) -> Int { byKind[kind] ?? 0 }

    /// The total over all kinds.
    public var total: Int { byKind.values.reduce(0, +) }
}
