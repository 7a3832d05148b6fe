/// The tunables of key lookup (docs/PROTOCOL.md Part H, `[lookup]` in meshnoded.conf).
///
/// Answers are the costly half of a lookup (each floods back to the requester), so they have
/// three budgets, each a token bucket: in total, per requesting neighbour (the link a request
/// came in on) and per target; and one answer per requester and target within `repeatWindow`.
/// Requests relayed for others have a budget per neighbour and in total.
public struct KeyLookupLimits: Equatable, Sendable {
    /// The longest a node that holds the target's profile waits before answering (random in
    /// `answerDelay/4 … answerDelay`); the target itself answers within `answerDelay/4`.
    public var answerDelay: Duration
    /// No second answer for the same requester and target within this window.
    public var repeatWindow: Duration
    /// Answers per second, all requests together.
    public var answersPerSecond: Double
    /// The most answers that can be saved up, all requests together.
    public var answerBurst: Double
    /// Answers per second to requests that came in through one neighbour.
    public var answersPerNeighbourPerSecond: Double
    /// The most answers saved up per neighbour.
    public var answerBurstPerNeighbour: Double
    /// Answers per second about one target.
    public var answersPerTargetPerSecond: Double
    /// The most answers saved up per target.
    public var answerBurstPerTarget: Double
    /// Requests per second relayed or answered from one neighbour.
    public var requestsPerNeighbourPerSecond: Double
    /// The most requests saved up per neighbour.
    public var requestBurstPerNeighbour: Double
    /// Requests per second relayed or answered, all neighbours together.
    public var requestsPerSecond: Double
    /// The most requests saved up, all neighbours together.
    public var requestBurst: Double
    /// How long a lookup this node started waits for an answer before it gives up.
    public var timeout: Duration
    /// A lookup not answered after this long sends its request again (with a new tag).
    public var retryInterval: Duration
    /// The most lookups in flight at once.
    public var maxLookups: Int
    /// The most messages waiting for a key, all lookups together.
    public var maxWaitingMessages: Int
    /// The most requesters, targets and neighbours remembered by each budget.
    public var memoryCapacity: Int

    /// Creates limits; the defaults are documented in docs/PROTOCOL.md Part H.
    public init(
        answerDelay: Duration = .milliseconds(200), repeatWindow: Duration = .seconds(30),
        answersPerSecond: Double = 2, answerBurst: Double = 10,
        answersPerNeighbourPerSecond: Double = 0.5, answerBurstPerNeighbour: Double = 4,
        answersPerTargetPerSecond: Double = 0.5, answerBurstPerTarget: Double = 3,
        requestsPerNeighbourPerSecond: Double = 1, requestBurstPerNeighbour: Double = 8,
        requestsPerSecond: Double = 4, requestBurst: Double = 24,
        timeout: Duration = .seconds(10), retryInterval: Duration = .seconds(3),
        maxLookups: Int = 16, maxWaitingMessages: Int = 64, memoryCapacity: Int = 1024
    ) {
        self.answerDelay = answerDelay
        self.repeatWindow = repeatWindow
        self.answersPerSecond = answersPerSecond
        self.answerBurst = answerBurst
        self.answersPerNeighbourPerSecond = answersPerNeighbourPerSecond
        self.answerBurstPerNeighbour = answerBurstPerNeighbour
        self.answersPerTargetPerSecond = answersPerTargetPerSecond
        self.answerBurstPerTarget = answerBurstPerTarget
        self.requestsPerNeighbourPerSecond = requestsPerNeighbourPerSecond
        self.requestBurstPerNeighbour = requestBurstPerNeighbour
        self.requestsPerSecond = requestsPerSecond
        self.requestBurst = requestBurst
        self.timeout = timeout
        self.retryInterval = retryInterval
        self.maxLookups = maxLookups
        self.maxWaitingMessages = maxWaitingMessages
        self.memoryCapacity = memoryCapacity
    }
}
