import Flooding
import MeshNode
import MeshProtocol

/// `[relay]` settings: how far messages and join notices travel. The link-local kinds
/// (heartbeat, key exchange, profile) are never relayed: the protocol fixes their limit at 0,
/// so there is nothing to configure. Defaults come from `HopLimits.relayChatDefaults`.
public struct RelaySettings: Equatable, Sendable {
    /// Hop limit of chat messages.
    public var ttlMessage = HopLimits.relayChatDefaults.limit(for: .message)
    /// Hop limit of join notices.
    public var ttlJoin = HopLimits.relayChatDefaults.limit(for: .joinNotice)

    /// Creates the defaults.
    public init() {}

    /// The hop-limit table these settings give: the defaults with the two relayed kinds set.
    public var hopLimits: HopLimits {
        var table = HopLimits.relayChatDefaults
        table.limits[.message] = ttlMessage
        table.limits[.joinNotice] = ttlJoin
        return table
    }
}

/// `[timers]` settings.
public struct TimerSettings: Equatable, Sendable {
    /// How often a heartbeat goes to each neighbour.
    public var heartbeatInterval = Duration.seconds(10)
    /// How long a silent neighbour is kept before it counts as gone.
    public var departureGrace = Duration.seconds(30)
    /// How long a link may take to finish its key exchange.
    public var handshakeTimeout = Duration.seconds(10)
    /// How often link keys are renewed.
    public var rekeyInterval = Duration.seconds(3600)

    /// Creates the defaults.
    public init() {}
}

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

/// `[hold]` settings: messages held for a neighbour in its departure grace (docs/PROTOCOL.md
/// Part E). The defaults are `HoldLimits()`'s, written once there.
public struct HoldSettings: Equatable, Sendable {
    /// The most envelopes held for one neighbour.
    public var messages = HoldLimits().messagesPerNeighbour
    /// The most bytes held for one neighbour.
    public var bytes = HoldLimits().bytesPerNeighbour
    /// The most bytes held for all neighbours together.
    public var totalBytes = HoldLimits().totalBytes
    /// How long an envelope may be held.
    public var maxAge = HoldLimits().maxAge
    /// Sends on a link this recent when it goes down are sent again.
    public var resendWindow = HoldLimits().resendWindow

    /// Creates the defaults.
    public init() {}

    /// The engine's limits for these settings.
    public var limits: HoldLimits {
        HoldLimits(
            messagesPerNeighbour: messages, bytesPerNeighbour: bytes, totalBytes: totalBytes, maxAge: maxAge,
            resendWindow: resendWindow)
    }
}
