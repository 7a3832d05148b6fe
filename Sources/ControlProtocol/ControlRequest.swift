
/// A control request line: `{"id": 1, "command": "send", "text": "...", "to": null}`.
public struct ControlRequest: Codable, Equatable, Sendable {
    /// Echoed in the reply; may be absent.
    public var id: ControlRequestID?
    /// `send`, `peers`, `stats`, `status`, `id` or `watch`.
    public var command: String
    /// The chat text (`send`).
    public var text: String?
    /// The destination node ID, 32 hex digits; absent or null to broadcast (`send`).
    public var to: String?

    /// Creates a request.
    public init(id: ControlRequestID?, command: String, text: String? = nil, to: String? = nil) {
        self.id = id
        self.command = command
        self.text = text
        self.to = to
    }
}
