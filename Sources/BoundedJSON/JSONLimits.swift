/// Bounds on what the parser accepts.
public struct JSONLimits: Equatable, Sendable {
    /// The most bytes one document may have.
    public var maxBytes: Int
    /// The deepest nesting of arrays and objects (the top-level container is depth 1).
    public var maxDepth: Int

    /// Creates limits.
    public init(maxBytes: Int, maxDepth: Int) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    /// 1 MiB and 32 levels: far above any control line, far below a stack overflow.
    public static let standard = JSONLimits(maxBytes: 1 << 20, maxDepth: 32)
}
