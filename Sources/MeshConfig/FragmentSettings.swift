/// `[fragments]` settings for reassembly.
public struct FragmentSettings: Equatable, Sendable {
    /// How long a partial message waits for its next fragment.
    public var timeout = Duration.seconds(10)
    /// The largest reassembled message, in bytes.
    public var maxMessage = 65_536
    /// The most partial messages at once on one link.
    public var maxTransfersPerLink = 32

    /// Creates the defaults.
    public init() {}
}
