import MeshProtocol

/// What became of a direct message sent to a node whose key may not be known yet.
public enum SendOrLookup: Equatable, Sendable {
    /// The key was known: the message went out.
    case sent(OriginatedMessage)
    /// The key is being looked up; the message goes out, with this ID, when it arrives
    /// (``EngineEvent/sentAfterLookup(_:_:)``) or is dropped when the lookup times out
    /// (``EngineEvent/lookupFailed(_:droppedMessages:)``).
    case waitingForKey(MessageID)
}
