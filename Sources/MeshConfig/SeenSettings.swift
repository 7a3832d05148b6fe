import MeshProtocol

/// `[seen]` settings for the seen-message-ID cache.
public struct SeenSettings: Equatable, Sendable {
    /// The most message IDs remembered.
    public var capacity = 65_536
    /// How long a message ID is remembered.
    public var expiry = Duration.seconds(600)
    /// The clock error tolerated between an origin and this node.
    public var maxClockSkew = FreshnessRule().maxClockSkew
    /// Whether messages older than the cache can vouch for are refused.
    public var checkTimestamps = FreshnessRule().enabled

    /// Creates the defaults.
    public init() {}
}
