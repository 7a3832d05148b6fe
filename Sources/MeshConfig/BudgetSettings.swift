import MeshProtocol

/// `[budget]` settings: what one neighbour may cost the others (docs/PROTOCOL.md Part E,
/// "Budgets"). The defaults are `BudgetLimits()`'s, written once there.
public struct BudgetSettings: Equatable, Sendable {
    /// Messages and join notices a neighbour may hand us per second, sustained.
    public var messagesPerSecond = Int(BudgetLimits().messagesPerSecond)
    /// How many a neighbour may hand us at once after a quiet spell.
    public var messageBurst = Int(BudgetLimits().messageBurst)
    /// Payload bytes a neighbour may hand us per second, sustained.
    public var bytesPerSecond = Int(BudgetLimits().bytesPerSecond)
    /// Payload bytes a neighbour may hand us at once after a quiet spell.
    public var byteBurst = Int(BudgetLimits().byteBurst)
    /// Signature checks per second, all neighbours together.
    public var verificationsPerSecond = Int(BudgetLimits().verificationsPerSecond)
    /// Signature checks that may be saved up.
    public var verificationBurst = Int(BudgetLimits().verificationBurst)

    /// Creates the defaults.
    public init() {}
}
