/// How many frames one link may hand the node, checked before anything else is done with a frame
/// (before reassembly, before a seal is opened): `framesPerSecond` on average, `burst` at once.
///
/// A frame over the budget is dropped for the cost of a counter. The default lies far above what
/// an honest link carries (PROTOCOL.md Part E, "Frames per link"), so only a flooding link meets it.
public struct FrameBudget: Equatable, Sendable {
    /// Frames a second on average; 0 turns the budget off.
    public let framesPerSecond: Int
    /// Frames that may arrive at once after a quiet spell (at least 1).
    public let burst: Int
    /// The time one frame spends of the allowance.
    let interval: Duration
    /// How far ahead of now a link's allowance may be spent: `burst - 1` intervals.
    let tolerance: Duration

    /// Creates a budget; `framesPerSecond` 0 (or less) admits every frame.
    public init(framesPerSecond: Int, burst: Int) {
        self.framesPerSecond = max(0, framesPerSecond)
        self.burst = max(1, burst)
        interval = self.framesPerSecond > 0 ? .seconds(1) / self.framesPerSecond : .zero
        tolerance = interval * (self.burst - 1)
    }

    /// Creates the default budget for `framesPerSecond`: a burst of two seconds' worth.
    public init(framesPerSecond: Int) {
        self.init(framesPerSecond: framesPerSecond, burst: 2 * framesPerSecond)
    }

    /// The default: 2,000 frames a second, 4,000 at once.
    public static let standard = FrameBudget(framesPerSecond: 2_000)

    /// No budget: every frame is admitted.
    public static let off = FrameBudget(framesPerSecond: 0)

    /// True when every frame is admitted.
    public var isOff: Bool { framesPerSecond == 0 }
}

/// One link's standing against a ``FrameBudget``: a token bucket kept as the one instant at which
/// the link's spent allowance is paid back (the generic cell rate algorithm), so a check is a
/// comparison and an addition. A new allowance is full.
public struct FrameAllowance: Equatable, Sendable {
    /// When everything admitted so far is paid back; nil before the first frame.
    private var paidBackAt: Duration?

    /// Creates a full allowance.
    public init() {}

    /// Spends one frame at `now` if `budget` has one left for this link; returns whether it did.
    public mutating func admit(at now: Duration, under budget: FrameBudget) -> Bool {
        guard !budget.isOff else { return true }
        let start = max(paidBackAt ?? now, now)
        guard start - now <= budget.tolerance else { return false }
        paidBackAt = start + budget.interval
        return true
    }

    /// True when the allowance is full again at `now`: forgetting it loses nothing.
    public func isIdle(at now: Duration, under budget: FrameBudget) -> Bool {
        (paidBackAt ?? now) <= now
    }
}
