
/// A control request line: `{"id": 1, "command": "send", "text": "...", "to": null}`.
public struct ControlRequest: Codable, Equatable, Sendable {
    /// Echoed in the reply; may be absent.
    public var id: ControlRequestID?
    /// One of `ControlCommand.served` (`send`, `peers`, `stats`, `status`, `id`, `watch`, `lookup`, `mailbox`, `cancel`); any other
    /// string gets `unknown_command`.
    public var command: String
    /// The chat text (`send`).
    public var text: String?
    /// The destination node ID, 32 hex digits; absent or null to broadcast (`send`); the node
    /// asked about (`lookup`).
    public var to: String?
    /// `lookup`: false only shows what is known, without starting a key lookup (absent: true).
    public var start: Bool?
    /// `cancel`: the message to cancel, 32 hex digits.
    public var messageID: String?

    /// Creates a request.
    public init(
        id: ControlRequestID?, command: String, text: String? = nil, to: String? = nil, start: Bool? = nil,
        messageID: String? = nil
    ) {
        self.id = id
        self.command = command
        self.text = text
        self.to = to
        self.start = start
        self.messageID = messageID
    }

    /// Creates a request for one of the commands meshnoded serves.
    public init(
        _ command: ControlCommand, id: ControlRequestID? = nil, text: String? = nil, to: String? = nil, start: Bool? = nil,
        messageID: String? = nil
    ) {
        self.init(id: id, command: command.rawValue, text: text, to: to, start: start, messageID: messageID)
    }
}
