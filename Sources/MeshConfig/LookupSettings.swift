import MeshProtocol

/// `[lookup]` settings: key lookup for nodes whose key this node lacks (docs/PROTOCOL.md Part H).
/// The defaults are `KeyLookupLimits()`'s, written once there.
public struct LookupSettings: Equatable, Sendable {
    /// How long a lookup waits for an answer.
    public var timeout = KeyLookupLimits().timeout
    /// A lookup not answered after this long sends its request again.
    public var retryInterval = KeyLookupLimits().retryInterval
    /// The longest a node holding the profile waits before answering.
    public var answerDelay = KeyLookupLimits().answerDelay

    /// Creates the defaults.
    public init() {}
}
