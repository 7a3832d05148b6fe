import MeshLink
import MeshProtocol

/// `[links]`: how many links may be in their key exchange at once, and for how long; the frame budget of every link.
public struct LinkSettings: Equatable, Sendable {
    /// Most links without link keys at once, all transports together.
    public var maxUnkeyed = LinkAdmissionLimits().maxUnkeyedLinks
    /// Most links without link keys from one address.
    public var maxUnkeyedPerAddress = LinkAdmissionLimits().maxUnkeyedPerAddress
    /// How long a stranger's link may stay without link keys.
    public var keyDeadline = LinkAdmissionLimits().keyDeadline
    /// How long a keyed link's address counts as a returning neighbour's.
    public var neighbourMemory = LinkAdmissionLimits().neighbourMemory
    /// Frames one link may hand the node a second (twice that at once); 0 turns the budget off.
    public var framesPerSecond = FrameBudget.standard.framesPerSecond

    /// The frame budget these settings give every link.
    public var frameBudget: FrameBudget { FrameBudget(framesPerSecond: framesPerSecond) }
}
