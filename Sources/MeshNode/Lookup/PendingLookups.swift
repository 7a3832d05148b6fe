import MeshProtocol

/// The key lookups this node started, and the messages waiting for their keys, on injected time.
///
/// Bounded: at most `maxLookups` lookups and `maxWaitingMessages` messages in all. A lookup
/// sends its request again with a new tag every `retryInterval` and gives up after `timeout`.
public struct PendingLookups: Sendable {
    /// One lookup in flight.
    public struct Lookup: Equatable, Sendable {
        /// The node whose key is wanted.
        public var target: NodeID
        /// The tag of the request sent last.
        public var tag: UInt64
        /// When the lookup started.
        public var started: Duration
        /// When its request was last sent.
        public var lastSent: Duration
        /// Messages to send to the target once its key is known, oldest first.
        public var messages: [WaitingMessage]
    }

    /// A message waiting for its destination's key: its text and the message ID it will carry.
    public struct WaitingMessage: Equatable, Sendable {
        /// The chat text.
        public var text: String
        /// The message ID, drawn when the message was queued (reported to the sender at once).
        public var messageID: MessageID
    }

    /// What starting a lookup did.
    public enum Start: Equatable, Sendable {
        /// A new lookup: send a request with this tag.
        case started
        /// A lookup for this target was already in flight.
        case joined
        /// `maxLookups` are in flight.
        case full
    }

    /// The limits in force.
    public let limits: KeyLookupLimits
    /// Lookups by target.
    public private(set) var lookups: [NodeID: Lookup] = [:]

    /// Creates an empty table.
    public init(limits: KeyLookupLimits) { self.limits = limits }

    /// Messages waiting, all lookups together.
    public var waitingMessages: Int { lookups.values.reduce(0) { $0 + $1.messages.count } }

    /// The earliest time a retry or a timeout is due, or nil.
    public var nextDue: Duration? {
        lookups.values.map { min($0.lastSent + limits.retryInterval, $0.started + limits.timeout) }.min()
    }

    /// Starts a lookup for `target` whose first request carries `tag`, or joins the one in flight.
    public mutating func start(_ target: NodeID, tag: UInt64, now: Duration) -> Start {
        if lookups[target] != nil { return .joined }
        guard lookups.count < limits.maxLookups else { return .full }
        lookups[target] = Lookup(target: target, tag: tag, started: now, lastSent: now, messages: [])
        return .started
    }

    /// Queues `text`, to go out as message `messageID`, for `target`'s lookup; false when there is
    /// no lookup or the queue is full.
    public mutating func enqueue(_ text: String, id messageID: MessageID, for target: NodeID) -> Bool {
        guard lookups[target] != nil, waitingMessages < limits.maxWaitingMessages else { return false }
        lookups[target]?.messages.append(WaitingMessage(text: text, messageID: messageID))
        return true
    }

    /// Lookups whose retry is due at `now` (not timed out): each gets the tag `newTag` makes,
    /// which its request carries. Returns the targets and tags to send.
    public mutating func retries(now: Duration, newTag: () -> UInt64) -> [(target: NodeID, tag: UInt64)] {
        var due: [(target: NodeID, tag: UInt64)] = []
        for (target, lookup) in lookups.sorted(by: { $0.key < $1.key })
        where now - lookup.lastSent >= limits.retryInterval && now - lookup.started < limits.timeout {
            let tag = newTag()
            lookups[target]?.tag = tag
            lookups[target]?.lastSent = now
            due.append((target, tag))
        }
        return due
    }

    /// Lookups that timed out at `now`; they leave the table with their messages.
    public mutating func expired(now: Duration) -> [Lookup] {
        let gone = lookups.values.filter { now - $0.started >= limits.timeout }.sorted { $0.target < $1.target }
        for lookup in gone { lookups[lookup.target] = nil }
        return gone
    }

    /// Takes one waiting message out (its writer cancelled it); the lookup itself goes on.
    /// Returns the message and its target, nil when no lookup holds it.
    public mutating func cancel(_ messageID: MessageID) -> (target: NodeID, message: WaitingMessage)? {
        for (target, lookup) in lookups {
            guard let index = lookup.messages.firstIndex(where: { $0.messageID == messageID }) else { continue }
            let message = lookups[target]!.messages.remove(at: index)
            return (target, message)
        }
        return nil
    }

    /// The lookup for `target` ends because its key is known; returns it with its messages.
    public mutating func resolve(_ target: NodeID) -> Lookup? {
        lookups.removeValue(forKey: target)
    }
}
