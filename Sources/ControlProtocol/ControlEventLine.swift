#if canImport(FoundationEssentials)
import FoundationEssentials  // JSON, Date and ProcessInfo without ICU's 30 MB of data
#else
import Foundation
#endif

/// An event line sent to watchers: `{"event": {...}}`.
public struct ControlEventLine: Codable, Equatable, Sendable {
    /// The event.
    public var event: WatchEvent

    /// Wraps an event.
    public init(event: WatchEvent) { self.event = event }
}
