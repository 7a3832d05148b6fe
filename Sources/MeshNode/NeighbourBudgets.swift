import Flooding
import MeshProtocol

/// The per-neighbour relay shares and the shared signature-check budget, as one value.
///
/// Bounded: one entry per neighbour that has a keyed link (``forget(_:)`` drops it when its
/// last link is gone), so minting identities buys nothing beyond the link budget.
public struct NeighbourBudgets: Sendable {
    /// What admitting one envelope decided.
    public enum Admission: Equatable, Sendable {
        /// Within the neighbour's share.
        case admitted
        /// The neighbour has spent its message share.
        case overMessageShare
        /// The neighbour has spent its byte share.
        case overByteShare
    }

    private struct Share: Sendable {
        var messages: TokenBucket
        var bytes: TokenBucket
    }

    /// The limits in force.
    public let limits: BudgetLimits
    private var shares: [NodeID: Share] = [:]
    private var verifications: TokenBucket

    /// Creates budgets with every bucket full at `now`.
    public init(limits: BudgetLimits, now: Duration = .zero) {
        self.limits = limits
        self.verifications = TokenBucket(rate: limits.verificationsPerSecond, burst: limits.verificationBurst, now: now)
    }

    /// Neighbours with a share on record.
    public var count: Int { shares.count }

    /// Spends one message and `bytes` byte tokens of `neighbour`'s share, if it has both.
    public mutating func admit(_ neighbour: NodeID, bytes: Int, now: Duration) -> Admission {
        var share = shares[neighbour] ?? Share(
            messages: TokenBucket(rate: limits.messagesPerSecond, burst: limits.messageBurst, now: now),
            bytes: TokenBucket(rate: limits.bytesPerSecond, burst: limits.byteBurst, now: now))
        defer { shares[neighbour] = share }
        guard share.messages.available(now: now) >= 1 else { return .overMessageShare }
        guard share.bytes.take(Double(bytes), now: now) else { return .overByteShare }
        _ = share.messages.take(1, now: now)
        return .admitted
    }

    /// Spends one signature check from the shared budget, if one is left. A check for a
    /// neighbour beyond its share (`withinShare` false) may only use what lies above half the
    /// burst: that half is kept for neighbours within their share.
    public mutating func takeVerification(withinShare: Bool, now: Duration) -> Bool {
        let reserve = withinShare ? 0 : limits.verificationBurst / 2
        guard verifications.available(now: now) >= reserve + 1 else { return false }
        return verifications.take(1, now: now)
    }

    /// Charges `neighbour` for a signature check that failed.
    public mutating func penalize(_ neighbour: NodeID, now: Duration) {
        shares[neighbour]?.messages.drain(limits.failedVerificationPenalty, now: now)
    }

    /// Forgets a neighbour's share (its last link is gone and its grace is over).
    public mutating func forget(_ neighbour: NodeID) {
        shares[neighbour] = nil
    }

    /// Keeps only the shares of `neighbours`.
    public mutating func keep(only neighbours: Set<NodeID>) {
        shares = shares.filter { neighbours.contains($0.key) }
    }
}
