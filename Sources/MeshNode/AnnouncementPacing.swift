/// When the node sends heartbeats and its own join notice: a value with time passed in.
///
/// Join notices go out when a new neighbour arrives, when a join notice from a node that cannot
/// know our keys must be answered, and every `refreshInterval` while the node has neighbours;
/// all of them coalesce to at most one per `noticeInterval`, and answers to at most one per
/// `answerInterval` (docs/PROTOCOL.md Part E).
public struct AnnouncementPacing: Equatable, Sendable {
    /// The heartbeat period.
    public let heartbeatInterval: Duration
    /// The fewest time between two of our join notices.
    public let noticeInterval: Duration
    /// How often the join notice is repeated while the node has neighbours.
    public let refreshInterval: Duration
    /// The fewest time between two answers to join notices from unknown nodes.
    public let answerInterval: Duration

    private var lastHeartbeat: Duration?
    private var lastNotice: Duration?
    private var noticePending = false
    private var lastAnswer: Duration?
    private var answerPending = false

    /// Creates the pacing with nothing sent yet.
    public init(heartbeatInterval: Duration, noticeInterval: Duration, refreshInterval: Duration, answerInterval: Duration) {
        self.heartbeatInterval = heartbeatInterval
        self.noticeInterval = noticeInterval
        self.refreshInterval = refreshInterval
        self.answerInterval = answerInterval
    }

    /// The pacing an engine configuration asks for.
    public init(_ configuration: EngineConfiguration) {
        self.init(
            heartbeatInterval: configuration.heartbeatInterval, noticeInterval: configuration.joinNoticeInterval,
            refreshInterval: configuration.joinNoticeRefreshInterval, answerInterval: configuration.joinAnswerInterval)
    }

    /// True (and counted as sent) when heartbeats are due at `now`; the first call always is.
    public mutating func takeHeartbeat(now: Duration) -> Bool {
        guard lastHeartbeat.map({ now - $0 >= heartbeatInterval }) ?? true else { return false }
        lastHeartbeat = now
        return true
    }

    /// A new neighbour arrived: our join notice should go out (coalesced).
    public mutating func neighbourJoined() { noticePending = true }

    /// A join notice came from a node that cannot know our keys: answer it (paced).
    public mutating func answerNeeded() { answerPending = true }

    /// True when our join notice is due at `now`; call `noticeSent(now:)` once it went out.
    public mutating func noticeDue(now: Duration, hasNeighbours: Bool) -> Bool {
        if let last = lastNotice, now - last >= refreshInterval, hasNeighbours { noticePending = true }
        if answerPending, lastAnswer.map({ now - $0 >= answerInterval }) ?? true {
            answerPending = false
            lastAnswer = now
            noticePending = true
        }
        return noticePending && (lastNotice.map { now - $0 >= noticeInterval } ?? true)
    }

    /// Our join notice went out at `now`: it answers every newcomer heard so far.
    public mutating func noticeSent(now: Duration) {
        lastNotice = now
        noticePending = false
        answerPending = false
    }
}
