import Flooding
import MeshProtocol

/// Key lookup (docs/PROTOCOL.md Part H) as one value that owns its state: this node's own
/// lookups with the messages waiting for their keys, its answers to others' requests, the way
/// back of each relayed request, and the signed profiles it can hand on. The engine asks it and
/// sends what it answers.
struct KeyLookup {
    /// Whether and when this node answers key requests.
    private(set) var planner: KeyAnswerPlanner
    /// Lookups this node started, with the messages waiting for their keys.
    private(set) var pending: PendingLookups
    /// The neighbour (or the bridge) each relayed key request came from, for its answers.
    private var reversePaths = ReversePaths(capacity: 1024, lifetime: .seconds(30))
    /// Signed profiles this node can hand on in key answers.
    private var signedProfiles: SignedProfiles
    /// What the requesting side did.
    private var requesterCounters = KeyLookupCounters()

    /// Creates key lookup within `configuration`'s limits; `seed` seeds the answer delays.
    init(_ configuration: EngineConfiguration, seed: UInt64) {
        planner = KeyAnswerPlanner(limits: configuration.lookup, seed: seed)
        pending = PendingLookups(limits: configuration.lookup)
        signedProfiles = SignedProfiles(capacity: configuration.maxKnownNodes)
    }

    /// What key lookup did, as this node's requests and as its answers to others.
    var counters: KeyLookupCounters {
        var merged = planner.counters
        let own = requesterCounters
        merged.started = own.started
        merged.found = own.found
        merged.timedOut = own.timedOut
        merged.refusedFull = own.refusedFull
        merged.retries = own.retries
        merged.messagesSentAfterLookup = own.messagesSentAfterLookup
        merged.messagesDropped = own.messagesDropped
        merged.messagesCancelled = own.messagesCancelled
        merged.bridgedAnswersUnrequested = own.bridgedAnswersUnrequested
        merged.answersUnrequested = own.answersUnrequested
        return merged
    }

    /// When the next answer is due, or nil.
    var nextDue: Duration? { planner.nextDue }

    // MARK: This node's lookups

    /// Starts a lookup for `target` with request tag `tag` (or joins the one in flight).
    mutating func start(_ target: NodeID, tag: UInt64, now: Duration) -> PendingLookups.Start {
        let start = pending.start(target, tag: tag, now: now)
        switch start {
        case .started: requesterCounters.started += 1
        case .joined: break
        case .full: requesterCounters.refusedFull += 1
        }
        return start
    }

    /// Queues a message for `target`'s key; false (counted as dropped) when the queue is full.
    mutating func enqueue(_ text: String, id messageID: MessageID, for target: NodeID) -> Bool {
        pending.enqueue(text, id: messageID, for: target)
    }

    /// Counts messages that never went out.
    mutating func countDropped(_ count: Int = 1) { requesterCounters.messagesDropped += UInt64(count) }

    /// Takes a waiting message out (`relayctl cancel`).
    mutating func cancel(_ messageID: MessageID) -> (target: NodeID, message: PendingLookups.WaitingMessage)? {
        guard let cancelled = pending.cancel(messageID) else { return nil }
        requesterCounters.messagesCancelled += 1
        return cancelled
    }

    /// Lookups whose retry interval passed, each with a new tag to send a request under.
    mutating func retries(now: Duration, newTag: () -> UInt64) -> [(target: NodeID, tag: UInt64)] {
        let due = pending.retries(now: now, newTag: newTag)
        requesterCounters.retries += UInt64(due.count)
        return due
    }

    /// Lookups that timed out, with the messages they drop.
    mutating func expired(now: Duration) -> [PendingLookups.Lookup] {
        let ended = pending.expired(now: now)
        for lookup in ended {
            requesterCounters.timedOut += 1
            requesterCounters.messagesDropped += UInt64(lookup.messages.count)
        }
        return ended
    }

    /// Ends the lookup for `target`, its key found; nil when none was in flight.
    mutating func resolve(_ target: NodeID) -> PendingLookups.Lookup? {
        guard let lookup = pending.resolve(target) else { return nil }
        requesterCounters.found += 1
        return lookup
    }

    /// Counts a waiting message sent once its key came.
    mutating func countSentAfterLookup() { requesterCounters.messagesSentAfterLookup += 1 }

    /// Counts an answer from the broker to no request of this gateway's.
    mutating func countBridgedAnswerUnrequested() { requesterCounters.bridgedAnswersUnrequested += 1 }

    // MARK: Others' requests and answers

    /// Remembers where a request came from, for the way back of its answers.
    mutating func recordRequest(_ request: KeyRequestKey, from source: RequestSource, now: Duration) {
        reversePaths.record(request, from: source, now: now)
    }

    /// Where a request came from, if this node relayed it within the last 30 s.
    func source(of request: KeyRequestKey, now: Duration) -> RequestSource? { reversePaths.source(for: request, now: now) }

    /// The neighbour a request came from, if it came from one.
    func neighbour(of request: KeyRequestKey, now: Duration) -> NodeID? { reversePaths.neighbour(for: request, now: now) }

    /// Decides about a request the relay rules accepted; returns whether it may be relayed.
    mutating func consider(
        _ request: KeyRequestKey, target: NodeID, from source: RequestSource, holder: KeyAnswerPlanner.Holder, now: Duration
    ) -> Bool {
        planner.consider(request, target: target, from: source, holder: holder, now: now).relay
    }

    /// Hears a verified answer to `request` about `target`: cancels this node's own answer to
    /// it and counts it when nobody here asked. Returns true when this node is waiting for it.
    mutating func heardAnswer(_ request: KeyRequestKey, target: NodeID, localNode: NodeID, now: Duration) -> Bool {
        planner.heardAnswer(request)
        let waiting = request.requester == localNode && pending.lookups[target] != nil
        if !waiting, request.requester == localNode || reversePaths.source(for: request, now: now) == nil {
            requesterCounters.answersUnrequested += 1
        }
        return waiting
    }

    /// The answers due now.
    mutating func dueAnswers(now: Duration) -> [KeyAnswerPlanner.PendingAnswer] { planner.due(now: now) }

    // MARK: Signed profiles

    /// Keeps a verified profile or join notice envelope of `node` for later answers.
    mutating func keepSignedProfile(_ envelope: Envelope, of node: NodeID) { signedProfiles.store(envelope, of: node) }

    /// The signed profile envelope of `node` this node holds, if any.
    func signedProfile(of node: NodeID) -> Envelope? { signedProfiles.envelope(of: node) }
}
