
/// A result type for replies that carry no result (errors).
public struct EmptyResult: Codable, Equatable, Sendable {
    /// Creates an empty result.
    public init() {}
}
