import MeshProtocol

/// `[relay]` settings: how far messages and join notices travel, and how relays are scheduled. The link-local kinds
/// (heartbeat, key exchange, profile) are never relayed: the protocol fixes their limit at 0,
/// so there is nothing to configure. Defaults come from `HopLimits.relayChatDefaults`.
public struct RelaySettings: Equatable, Sendable {
    /// Hop limit of chat messages.
    public var ttlMessage = HopLimits.relayChatDefaults.limit(for: .message)
    /// Hop limit of join notices.
    public var ttlJoin = HopLimits.relayChatDefaults.limit(for: .joinNotice)
    /// Hop limit of key requests (docs/PROTOCOL.md Part H).
    public var ttlKeyRequest = HopLimits.relayChatDefaults.limit(for: .keyRequest)
    /// Hop limit of key answers.
    public var ttlKeyAnswer = HopLimits.relayChatDefaults.limit(for: .keyAnswer)

    /// Which relay scheduler runs: managed flooding (the default, from docs/PERFORMANCE.md) or plain.
    public var scheduler = RelaySchedulerKind.managed
    /// Managed flooding: relay window per ready neighbour.
    public var managedSlot = ManagedFloodingParameters().slot
    /// Managed flooding: the longest a relay is held.
    public var managedMaxWindow = ManagedFloodingParameters().maxWindow
    /// Managed flooding: cancel a held relay after this many neighbours relayed it (0: never).
    public var managedCancelAfter = ManagedFloodingParameters().cancelAfterCopies
    /// Managed flooding: skip a target once this many relaying nodes are known linked to it.
    public var managedCoverage = ManagedFloodingParameters().coverage

    /// Creates the defaults.
    public init() {}
}

/// The `[relay] scheduler` values.
public enum RelaySchedulerKind: String, CaseIterable, Sendable {
    /// Managed flooding: relays held briefly and sent only to neighbours not known to have the message.
    case managed
    /// Plain RelayChat flooding: every relay at once to every neighbour.
    case plain
}
