
/// An event line sent to watchers: `{"event": {...}}`.
public struct ControlEventLine: Codable, Equatable, Sendable {
    /// The event.
    public var event: WatchEvent

    /// Wraps an event.
    public init(event: WatchEvent) { self.event = event }
}
