import Flooding
import MeshProtocol

/// Whether and when this node answers key requests, as a value on injected time.
///
/// For each request that reaches it, the engine asks ``consider(_:target:from:holder:now:)``:
/// a request within the request budgets may be relayed; when this node is the target or
/// holds the target's verified profile, an answer is scheduled after a random delay (the target
/// sooner than holders) unless the same requester had an answer about the same target within
/// the repeat window or an answer budget is spent. An answer to the same request heard
/// meanwhile cancels it (``heardAnswer(_:)``); ``due(now:)`` hands over the answers to send.
public struct KeyAnswerPlanner: Sendable {
    /// Who may answer a request.
    public enum Holder: Equatable, Sendable {
        /// This node is the target: it answers with a fresh profile.
        case target
        /// This node holds the target's verified profile.
        case cached
        /// This node knows no profile of the target.
        case none
    }

    /// What to do with one request.
    public struct Decision: Equatable, Sendable {
        /// Relay the request on (within its hop limit).
        public var relay: Bool
        /// When the scheduled answer is due, if one was scheduled.
        public var answerAt: Duration?
    }

    /// One answer waiting for its time.
    public struct PendingAnswer: Equatable, Sendable {
        /// The request answered.
        public var request: KeyRequestKey
        /// The node whose profile goes out.
        public var target: NodeID
        /// When it is due.
        public var due: Duration
    }

    /// The limits in force.
    public let limits: KeyLookupLimits
    /// What was decided so far.
    public private(set) var counters = KeyLookupCounters()
    private var requestTotal: TokenBucket
    private var requestsByNeighbour: BucketTable<RequestSource>
    private var answerTotal: TokenBucket
    private var answersByNeighbour: BucketTable<RequestSource>
    private var answersByTarget: BucketTable<NodeID>
    private var lastAnswered: [RepeatKey: Duration] = [:]
    private var pending: [KeyRequestKey: PendingAnswer] = [:]
    private var random: SplitMix64

    private struct RepeatKey: Hashable, Sendable {
        var requester: NodeID
        var target: NodeID
    }

    /// Creates a planner with full budgets at `now`; `seed` drives the answer delays.
    public init(limits: KeyLookupLimits, seed: UInt64, now: Duration = .zero) {
        self.limits = limits
        let capacity = limits.memoryCapacity
        requestTotal = TokenBucket(rate: limits.requestsPerSecond, burst: limits.requestBurst, now: now)
        requestsByNeighbour = BucketTable(
            rate: limits.requestsPerNeighbourPerSecond, burst: limits.requestBurstPerNeighbour, capacity: capacity)
        answerTotal = TokenBucket(rate: limits.answersPerSecond, burst: limits.answerBurst, now: now)
        answersByNeighbour = BucketTable(
            rate: limits.answersPerNeighbourPerSecond, burst: limits.answerBurstPerNeighbour, capacity: capacity)
        answersByTarget = BucketTable(
            rate: limits.answersPerTargetPerSecond, burst: limits.answerBurstPerTarget, capacity: capacity)
        random = SplitMix64(seed: seed)
    }

    /// Answers waiting for their time.
    public var pendingCount: Int { pending.count }

    /// The earliest time an answer is due, or nil.
    public var nextDue: Duration? {
        var next: Duration?
        for answer in pending.values where next.map({ answer.due < $0 }) ?? true { next = answer.due }
        return next
    }

    /// Decides about a request (first copy, accepted by the relay rules) that came in from
    /// neighbour `neighbour`. Spends the request budgets; spends the answer budgets only when it
    /// schedules an answer.
    public mutating func consider(
        _ request: KeyRequestKey, target: NodeID, from neighbour: NodeID, holder: Holder, now: Duration
    ) -> Decision {
        consider(request, target: target, from: .neighbour(neighbour), holder: holder, now: now)
    }

    /// Decides about a request that came in from `source`: a neighbour, or the bridge, which has
    /// one neighbour's budgets for all the gateways that publish on the broker.
    public mutating func consider(
        _ request: KeyRequestKey, target: NodeID, from source: RequestSource, holder: Holder, now: Duration
    ) -> Decision {
        guard requestsByNeighbour.allows(source, now: now), requestTotal.available(now: now) >= 1 else {
            counters.requestsOverBudget += 1
            return Decision(relay: false, answerAt: nil)
        }
        _ = requestsByNeighbour.take(source, now: now)
        _ = requestTotal.take(1, now: now)
        guard holder != .none else { return Decision(relay: true, answerAt: nil) }
        // A node that can answer does not spread the request further: its answer ends it.
        guard pending[request] == nil else { return Decision(relay: false, answerAt: nil) }
        expireRepeats(now: now)
        let repeatKey = RepeatKey(requester: request.requester, target: target)
        if lastAnswered[repeatKey] != nil {
            counters.answersRepeated += 1
            return Decision(relay: false, answerAt: nil)
        }
        guard lastAnswered.count < limits.memoryCapacity, answerTotal.available(now: now) >= 1,
            answersByNeighbour.allows(source, now: now), answersByTarget.allows(target, now: now)
        else {
            counters.answersOverBudget += 1
            return Decision(relay: false, answerAt: nil)
        }
        _ = answerTotal.take(1, now: now)
        _ = answersByNeighbour.take(source, now: now)
        _ = answersByTarget.take(target, now: now)
        lastAnswered[repeatKey] = now
        let due = now + delay(for: holder)
        pending[request] = PendingAnswer(request: request, target: target, due: due)
        counters.answersScheduled += 1
        return Decision(relay: false, answerAt: due)
    }

    /// An answer to `request` was heard: a scheduled answer of ours to it is cancelled.
    /// Returns whether one was.
    @discardableResult
    public mutating func heardAnswer(_ request: KeyRequestKey) -> Bool {
        guard pending.removeValue(forKey: request) != nil else { return false }
        counters.answersCancelled += 1
        return true
    }

    /// The answers due at `now`, earliest first; they leave the schedule.
    public mutating func due(now: Duration) -> [PendingAnswer] {
        let ready = pending.values.filter { $0.due <= now }.sorted { $0.due < $1.due }
        for answer in ready { pending[answer.request] = nil }
        counters.answersSent += UInt64(ready.count)
        return ready
    }

    private mutating func delay(for holder: Holder) -> Duration {
        let window = limits.answerDelay
        let quarter = window / 4
        let fraction = Double(random.next() >> 11) / Double(UInt64(1) << 53)
        return holder == .target ? quarter * fraction : quarter + (window - quarter) * fraction
    }

    private mutating func expireRepeats(now: Duration) {
        lastAnswered = lastAnswered.filter { now - $0.value < limits.repeatWindow }
    }
}
