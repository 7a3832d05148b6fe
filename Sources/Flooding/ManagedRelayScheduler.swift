import MeshProtocol

/// Managed flooding: relays less where the mesh is dense, with nothing changed on the wire,
/// skipping a neighbour only on evidence a third party cannot forge (docs/PROTOCOL.md Part C,
/// "Managed flooding").
///
/// A node with more than `sparseNeighbours` neighbours holds each relay for a random delay
/// within a window that grows with its neighbour count (Meshtastic lets the delay grow with
/// signal strength; the engine has no per-frame RSSI, so the neighbour count stands in). A
/// target is skipped when it sent us the message itself, or when `coverage` neighbours that
/// sent us the message with at most our hops are linked to it by the target's own word
/// (``LinkClaims``). The link seal proves who sent a copy; route entries are only the word of
/// whoever relayed before, so they never make us skip anyone. Sparse nodes (a line, a ring)
/// relay at once, as plain flooding does, so nothing is lost there.
///
/// Memory is bounded: at most `maxPending` relays are held, and at most a quarter of them
/// came from one neighbour; beyond either a relay goes out at once and `overflow` counts it,
/// so one neighbour's flood never delays or displaces another's relays. Delays come
/// from the injected generator.
public struct ManagedRelayScheduler<Random: RandomNumberGenerator & Sendable>: RelayScheduler {
    /// The tunables in force.
    public let parameters: ManagedFloodingParameters
    /// What the scheduler did so far.
    public private(set) var counters = RelaySchedulerCounters()
    private var random: Random
    private var held: [MessageID: HeldRelay] = [:]
    private var heldPerSender: [NodeID: Int] = [:]
    private var immediate: [ScheduledRelay] = []
    private var nextSequence: UInt64 = 0
    /// The links neighbours claimed for themselves on the copies they sent us.
    public private(set) var claims: LinkClaims

    /// Creates a scheduler drawing its delays from `random`.
    public init(parameters: ManagedFloodingParameters = ManagedFloodingParameters(), random: Random) {
        self.parameters = parameters
        self.random = random
        self.claims = LinkClaims()
    }

    /// Relays held now.
    public var pendingCount: Int { held.count }

    /// The most relays held at once that came from one neighbour.
    public var maxPendingPerSender: Int { max(1, parameters.maxPending / 4) }

    /// The relay window of a node with `neighbours` ready neighbours (zero for sparse nodes).
    public func window(neighbours: Int) -> Duration {
        guard neighbours > parameters.sparseNeighbours else { return .zero }
        return min(parameters.maxWindow, parameters.slot * neighbours)
    }

    /// Learns the link the neighbour claims for itself on a copy it sent us (first or not).
    public mutating func observe(_ envelope: Envelope, from neighbour: NodeID, now: Duration) {
        claims.learn(route: envelope.route, from: neighbour, now: now)
    }

    /// Holds the plan for a random delay, or queues it at once for sparse nodes and on overflow.
    /// A plan for an ID already held (a copy by a shorter path) replaces the held envelope and
    /// joins its targets, keeping the held due time.
    public mutating func schedule(_ plan: RelayPlan, neighbours: Int, now: Duration) {
        counters.scheduled += 1
        let id = plan.envelope.messageID
        if var existing = held[id] {
            let targets = Set(existing.plan.targets).union(plan.targets)
            existing.plan = RelayPlan(envelope: plan.envelope, targets: targets.sorted())
            existing.copies = []
            held[id] = existing
            return
        }
        guard neighbours > parameters.sparseNeighbours, plan.envelope.route.count >= 2 else {
            immediate.append(ScheduledRelay(plan: plan, dueAt: now))
            return
        }
        // The relay copy's route ends [..., sender, us]: the sender relayed the message to
        // every neighbour of its own that lacked it, with fewer hops than ours.
        let sender = plan.envelope.route[plan.envelope.route.count - 2]
        var plan = plan
        var covered: [NodeID: Set<NodeID>] = [:]
        for target in plan.targets where claims.claims(target, linkedTo: sender, now: now) {
            covered[target] = [sender]
        }
        let before = plan.targets.count
        plan.targets.removeAll { (covered[$0]?.count ?? 0) >= parameters.coverage }
        counters.targetsPruned += UInt64(before - plan.targets.count)
        guard !plan.targets.isEmpty else {
            counters.cancelled += 1
            return
        }
        let window = window(neighbours: neighbours)
        let fromSender = heldPerSender[sender, default: 0]
        guard window > .zero, held.count < parameters.maxPending, fromSender < maxPendingPerSender else {
            if window > .zero { counters.overflow += 1 }
            immediate.append(ScheduledRelay(plan: plan, dueAt: now))
            return
        }
        let nanoseconds = window.components.seconds * 1_000_000_000 + window.components.attoseconds / 1_000_000_000
        let delay = Duration.nanoseconds(Int64.random(in: 0...nanoseconds, using: &random))
        counters.delayed += 1
        held[id] = HeldRelay(plan: plan, dueAt: now + delay, sequence: nextSequence, sender: sender, covered: covered)
        heldPerSender[sender] = fromSender + 1
        nextSequence += 1
    }

    /// Drops from a held relay's targets the neighbour that sent this duplicate (it has the
    /// message) and, when its copy had at most our hops, every target that claims a link to it
    /// (it sent them the message); cancels the relay once enough neighbours relayed it with at
    /// most our hops. Nothing on the copy's route but its sender counts.
    public mutating func heard(_ copy: Envelope, from neighbour: NodeID, now: Duration) {
        guard var entry = held[copy.messageID] else { return }
        let ours = Int(entry.plan.envelope.hops)
        if Int(copy.hops) <= ours {
            entry.copies.insert(neighbour)
            for target in entry.plan.targets where claims.claims(target, linkedTo: neighbour, now: now) {
                entry.covered[target, default: []].insert(neighbour)
            }
        }
        let covered = entry.covered
        let coverage = parameters.coverage
        let before = entry.plan.targets.count
        // The neighbour took the message with `copy.hops - 1` hops; ours would only help it if shorter.
        let sender = Int(copy.hops) - 1 <= ours ? neighbour : nil
        entry.plan.targets.removeAll { $0 == sender || (covered[$0]?.count ?? 0) >= coverage }
        counters.targetsPruned += UInt64(before - entry.plan.targets.count)
        let enough = parameters.cancelAfterCopies > 0 && entry.copies.count >= parameters.cancelAfterCopies
        if enough || entry.plan.targets.isEmpty {
            counters.cancelled += 1
            release(copy.messageID, sender: entry.sender)
        } else {
            held[copy.messageID] = entry
        }
    }

    /// Every relay due at or before `now`: first those queued at once, then held ones by due time.
    public mutating func due(now: Duration) -> [ScheduledRelay] {
        var result = immediate
        immediate.removeAll(keepingCapacity: true)
        guard let next = nextHeldDue, next <= now else { return result }
        let ready = held.filter { $0.value.dueAt <= now }.values.sorted {
            ($0.dueAt, $0.sequence) < ($1.dueAt, $1.sequence)
        }
        for entry in ready {
            release(entry.plan.envelope.messageID, sender: entry.sender)
            result.append(ScheduledRelay(plan: entry.plan, dueAt: entry.dueAt))
        }
        return result
    }

    /// The earliest due time of anything queued or held.
    public var nextDue: Duration? {
        if let first = immediate.first { return first.dueAt }
        return nextHeldDue
    }

    /// A loop, not `held.values.lazy.map(\.dueAt).min()`: that one builds a key path and copies
    /// every held relay on each call, and this runs on every envelope received.
    private var nextHeldDue: Duration? {
        var next: Duration?
        for entry in held.values where next.map({ entry.dueAt < $0 }) ?? true { next = entry.dueAt }
        return next
    }

    private mutating func release(_ id: MessageID, sender: NodeID) {
        held[id] = nil
        let left = heldPerSender[sender, default: 1] - 1
        heldPerSender[sender] = left > 0 ? left : nil
    }
}

/// A relay the managed scheduler holds. Outside the generic scheduler, so that its copies and the
/// dictionary of them are compiled for this one type rather than through runtime metadata.
private struct HeldRelay: Sendable {
    var plan: RelayPlan
    var dueAt: Duration
    var sequence: UInt64
    /// The neighbour whose copy we relay (it handed us the message first).
    var sender: NodeID
    var copies: Set<NodeID> = []
    /// For each target, the neighbours known to have sent it the message.
    var covered: [NodeID: Set<NodeID>] = [:]
}
