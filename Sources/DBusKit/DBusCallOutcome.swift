/// What an exported object answers to one method call.
public enum DBusCallOutcome: Equatable, Sendable {
    /// A successful reply with these arguments.
    case reply([DBusValue])
    /// An error reply.
    case error(name: String, text: String)
}
