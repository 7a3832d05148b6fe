/// Why a topic layout or a received topic was refused.
public enum MQTTTopicError: Error, Equatable, Sendable {
    /// The prefix is empty, too long, or has a character or level outside the allowed set.
    case invalidPrefix(String)
    /// The mesh name is empty, too long, or has a character outside the allowed set.
    case invalidMeshName(String)
    /// A received topic is not under this layout's `<prefix>/<mesh>/`.
    case foreignTopic
    /// A received topic is under the layout but names no known kind or a malformed destination.
    case unknownTopic
}
