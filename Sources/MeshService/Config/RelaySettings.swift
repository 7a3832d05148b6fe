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
