#if canImport(FoundationEssentials)
import FoundationEssentials  // JSON, Date and ProcessInfo without ICU's 30 MB of data
#else
import Foundation
#endif

/// A result type for replies that carry no result (errors).
public struct EmptyResult: Codable, Equatable, Sendable {
    /// Creates an empty result.
    public init() {}
}
