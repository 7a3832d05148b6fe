import Flooding
import MeshProtocol

/// The per-neighbour relay shares and the shared signature-check budget, as one value.
///
/// A neighbour's traffic is charged twice: to the share of the **upstream** it came through
/// (the neighbour itself for what it originates, hops 0; else the node before it on the route,
/// which handed it over) and to the neighbour's total, `neighbourShareFactor` upstream shares.
/// So a relay that carries a flood from one of its neighbours spends only that upstream's
/// share here, and what it carries from its other neighbours still goes through; a neighbour
/// that invents upstreams gets at most its total.
///
/// Bounded: one entry per neighbour that has a keyed link (``keep(only:)`` drops the rest) and
/// at most `maxUpstreamsPerNeighbour` upstream shares in each (any further upstream shares one
/// overflow share), so minting identities buys nothing beyond the link budget.
public struct NeighbourBudgets: Sendable {
    /// What admitting one envelope decided.
    public enum Admission: Equatable, Sendable {
        /// Within its upstream's share and the neighbour's total.
        case admitted
        /// The upstream it came through, or the neighbour in all, has spent its message share.
        case overMessageShare
        /// The upstream it came through, or the neighbour in all, has spent its byte share.
        case overByteShare
    }

    private struct Share: Sendable {
        var messages: TokenBucket
        var bytes: TokenBucket

        init(_ limits: BudgetLimits, factor: Double, now: Duration) {
            messages = TokenBucket(rate: limits.messagesPerSecond * factor, burst: limits.messageBurst * factor, now: now)
            bytes = TokenBucket(rate: limits.bytesPerSecond * factor, burst: limits.byteBurst * factor, now: now)
        }

        func admits(bytes size: Int, now: Duration) -> Admission {
            if messages.available(now: now) < 1 { return .overMessageShare }
            if bytes.available(now: now) < Double(size) { return .overByteShare }
            return .admitted
        }

        mutating func spend(bytes size: Int, now: Duration) {
            _ = messages.take(1, now: now)
            _ = bytes.take(Double(size), now: now)
        }
    }

    private struct Neighbour: Sendable {
        var total: Share
        var upstreams: [NodeID: Share] = [:]
        var overflow: Share
    }

    /// The limits in force.
    public let limits: BudgetLimits
    private var neighbours: [NodeID: Neighbour] = [:]
    private var verifications: TokenBucket

    /// Creates budgets with every bucket full at `now`.
    public init(limits: BudgetLimits, now: Duration = .zero) {
        self.limits = limits
        self.verifications = TokenBucket(rate: limits.verificationsPerSecond, burst: limits.verificationBurst, now: now)
    }

    /// Neighbours with a share on record.
    public var count: Int { neighbours.count }

    /// Spends one message and `bytes` byte tokens of the share of `upstream` at `neighbour`
    /// and of the neighbour's total, if both have them.
    public mutating func admit(_ neighbour: NodeID, upstream: NodeID, bytes: Int, now: Duration) -> Admission {
        // In place: a copy of the entry shared its upstream dictionary with the stored one, so
        // writing the share back copied the whole dictionary on every envelope.
        Self.admit(&neighbours[neighbour, default: Self.fresh(limits, now: now)], upstream: upstream, bytes: bytes, limits: limits, now: now)
    }

    private static func fresh(_ limits: BudgetLimits, now: Duration) -> Neighbour {
        Neighbour(total: Share(limits, factor: limits.neighbourShareFactor, now: now), overflow: Share(limits, factor: 1, now: now))
    }

    private static func admit(
        _ entry: inout Neighbour, upstream: NodeID, bytes: Int, limits: BudgetLimits, now: Duration
    ) -> Admission {
        if entry.upstreams[upstream] == nil, entry.upstreams.count < limits.maxUpstreamsPerNeighbour {
            entry.upstreams[upstream] = Share(limits, factor: 1, now: now)
        }
        var share = entry.upstreams[upstream] ?? entry.overflow
        let verdict = share.admits(bytes: bytes, now: now)
        guard verdict == .admitted else { return verdict }
        let total = entry.total.admits(bytes: bytes, now: now)
        guard total == .admitted else { return total }
        share.spend(bytes: bytes, now: now)
        entry.total.spend(bytes: bytes, now: now)
        if entry.upstreams[upstream] != nil { entry.upstreams[upstream] = share } else { entry.overflow = share }
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

    /// Charges `neighbour` for a signature check that failed or an edited route (a debt on its
    /// total share, at most one burst deep).
    public mutating func penalize(_ neighbour: NodeID, now: Duration) {
        neighbours[neighbour, default: Self.fresh(limits, now: now)].total.messages.drain(limits.failedVerificationPenalty, now: now)
    }

    /// Keeps only the shares of `kept` (neighbours with a link or in their departure grace).
    public mutating func keep(only kept: Set<NodeID>) {
        neighbours = neighbours.filter { kept.contains($0.key) }
    }
}
