import MeshProtocol

/// Managed flooding: relays less where the mesh is dense, with nothing changed on the wire.
///
/// A node with more than `sparseNeighbours` neighbours holds each relay for a random delay
/// within a window that grows with its neighbour count (Meshtastic lets the delay grow with
/// signal strength; the engine has no per-frame RSSI, so the neighbour count stands in). While
/// the relay is held, every neighbour heard sending the same ID with no more hops than our copy
/// would give it is dropped from the targets: it already has the message by a path as short as
/// ours. Once `cancelAfterCopies` neighbours were heard relaying it with at most our hops, the
/// relay is cancelled (Reticulum drops a pending rebroadcast after k copies; Meshtastic cancels
/// when it hears a neighbour repeat). Sparse nodes (a line, a ring) relay at once, as plain
/// flooding does, so nothing is lost there.
///
/// Memory is bounded: at most `maxPending` relays are held; beyond that a relay goes out at
/// once and `overflow` counts it. Delays come from the injected generator.
public struct ManagedRelayScheduler<Random: RandomNumberGenerator & Sendable>: RelayScheduler {
    private struct Held: Sendable {
        var plan: RelayPlan
        var dueAt: Duration
        var sequence: UInt64
        var copies: Set<NodeID> = []
        /// For each target, the nodes seen to have sent it the message (by route and adjacency).
        var covered: [NodeID: Set<NodeID>] = [:]
    }

    /// The tunables in force.
    public let parameters: ManagedFloodingParameters
    /// What the scheduler did so far.
    public private(set) var counters = RelaySchedulerCounters()
    private var random: Random
    private var held: [MessageID: Held] = [:]
    private var immediate: [ScheduledRelay] = []
    private var nextSequence: UInt64 = 0
    /// Links seen in the routes of passing envelopes.
    public private(set) var adjacency: AdjacencyMemory

    /// Creates a scheduler drawing its delays from `random`.
    public init(parameters: ManagedFloodingParameters = ManagedFloodingParameters(), random: Random) {
        self.parameters = parameters
        self.random = random
        self.adjacency = AdjacencyMemory()
    }

    /// Relays held now.
    public var pendingCount: Int { held.count }

    /// The relay window of a node with `neighbours` ready neighbours (zero for sparse nodes).
    public func window(neighbours: Int) -> Duration {
        guard neighbours > parameters.sparseNeighbours else { return .zero }
        return min(parameters.maxWindow, parameters.slot * neighbours)
    }

    /// Holds the plan for a random delay, or queues it at once for sparse nodes and on overflow.
    /// A plan for an ID already held (a copy by a shorter path) replaces the held envelope and
    /// joins its targets, keeping the held due time.
    public mutating func schedule(_ plan: RelayPlan, neighbours: Int, now: Duration) {
        counters.scheduled += 1
        let id = plan.envelope.messageID
        adjacency.learn(route: plan.envelope.route, now: now)
        if var existing = held[id] {
            let targets = Set(existing.plan.targets).union(plan.targets)
            existing.plan = RelayPlan(envelope: plan.envelope, targets: targets.sorted())
            existing.copies = []
            held[id] = existing
            return
        }
        guard neighbours > parameters.sparseNeighbours else {
            immediate.append(ScheduledRelay(plan: plan, dueAt: now))
            return
        }
        // Everyone on the route before us relayed, with fewer hops than ours, to all its
        // neighbours that lacked the message: a target linked to `coverage` of them needs
        // nothing from us.
        var plan = plan
        let route = plan.envelope.route.dropLast()
        var covered: [NodeID: Set<NodeID>] = [:]
        for target in plan.targets {
            let senders = route.filter { adjacency.linked($0, target, now: now) }
            if !senders.isEmpty { covered[target] = Set(senders) }
        }
        let before = plan.targets.count
        plan.targets.removeAll { (covered[$0]?.count ?? 0) >= parameters.coverage }
        counters.targetsPruned += UInt64(before - plan.targets.count)
        guard !plan.targets.isEmpty else {
            counters.cancelled += 1
            return
        }
        let window = window(neighbours: neighbours)
        guard window > .zero, held.count < parameters.maxPending else {
            if window > .zero { counters.overflow += 1 }
            immediate.append(ScheduledRelay(plan: plan, dueAt: now))
            return
        }
        let nanoseconds = window.components.seconds * 1_000_000_000 + window.components.attoseconds / 1_000_000_000
        let delay = Duration.nanoseconds(Int64.random(in: 0...nanoseconds, using: &random))
        counters.delayed += 1
        held[id] = Held(plan: plan, dueAt: now + delay, sequence: nextSequence, covered: covered)
        nextSequence += 1
    }

    /// Drops from a held relay's targets every neighbour the duplicate shows has the message by a
    /// path as short as ours would give it (its sender and the nodes on its route), and cancels the
    /// relay once enough neighbours relayed it with at most our hops.
    public mutating func heard(_ copy: Envelope, from neighbour: NodeID, now: Duration) {
        adjacency.learn(route: copy.route, now: now)
        guard var entry = held[copy.messageID] else { return }
        let ours = Int(entry.plan.envelope.hops)
        // route[i] accepted the message with i − 1 hops (route[0] is the origin); our copy, with
        // `ours` hops, would only help it if it were shorter than that.
        var holders: Set<NodeID> = []
        for (index, node) in copy.route.enumerated() where index == 0 || index - 1 <= ours { holders.insert(node) }
        if copy.hops == 0 || Int(copy.hops) - 1 <= ours { holders.insert(neighbour) }
        // The neighbour sent this copy to all its neighbours that lacked it, at `copy.hops`.
        let reached = Int(copy.hops) <= ours
        if reached {
            for target in entry.plan.targets where adjacency.linked(neighbour, target, now: now) {
                entry.covered[target, default: []].insert(neighbour)
            }
        }
        let covered = entry.covered
        let coverage = parameters.coverage
        let before = entry.plan.targets.count
        entry.plan.targets.removeAll { target in holders.contains(target) || (covered[target]?.count ?? 0) >= coverage }
        counters.targetsPruned += UInt64(before - entry.plan.targets.count)
        if Int(copy.hops) <= ours { entry.copies.insert(neighbour) }
        let enough = parameters.cancelAfterCopies > 0 && entry.copies.count >= parameters.cancelAfterCopies
        if enough || entry.plan.targets.isEmpty {
            counters.cancelled += 1
            held[copy.messageID] = nil
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
            held[entry.plan.envelope.messageID] = nil
            result.append(ScheduledRelay(plan: entry.plan, dueAt: entry.dueAt))
        }
        return result
    }

    /// The earliest due time of anything queued or held.
    public var nextDue: Duration? {
        if let first = immediate.first { return first.dueAt }
        return nextHeldDue
    }

    private var nextHeldDue: Duration? { held.values.lazy.map(\.dueAt).min() }
}
