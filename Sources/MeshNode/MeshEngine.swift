import Flooding
import Fragmenter
import MeshCrypto
import MeshLink
import MeshProtocol

/// The node engine: links, neighbours, keys, relay rules and timers as one state machine.
///
/// Every transport (BlueZ, loopback UDP, the simulator) drives the same engine: it reports
/// link and frame events with the current time and performs the returned actions in
/// order. The engine never sleeps, never reads a clock and never touches a socket, so
/// the simulator and the tests run it on virtual time.
public final class MeshEngine {
    /// This node's identity.
    public let identity: NodeIdentity
    /// The configuration in force.
    public private(set) var configuration: EngineConfiguration
    /// Counters per message kind.
    public internal(set) var kindCounters = FloodCounters()
    /// Counters of links, handshakes and seals.
    public var linkCounters: LinkCounters { links.counters }

    var router: FloodRouter
    var scheduler: any RelayScheduler
    /// Neighbours, their profiles and what is held for them.
    var neighbours: Neighbours
    /// Links, their handshakes, keys and reassembly, and link admission.
    var links: EngineLinks
    var knownNodes: KnownNodes
    var budgets: NeighbourBudgets
    var recentJoins = RecentJoinNotices()
    var random: any RandomNumberGenerator & Sendable
    let fragmenterLimits: FragmenterLimits
    /// The wall clock at engine time zero and mesh time (docs/PROTOCOL.md Part C, "Mesh time").
    var time: MeshTime
    var pacing: AnnouncementPacing
    var actions: [EngineAction] = []
    /// The transfers sent since the last ``takeSentTransfers()``, when the configuration notes them.
    var sentTransfers: [SentTransfer] = []
    var originKeys = OriginKeyCache()
    /// Key lookup: own lookups, answers to others, ways back, signed profiles (docs/PROTOCOL.md Part H).
    var lookup: KeyLookup
    /// What a gateway does at the MQTT bridge (Part F).
    var bridge: BridgePolicy
    /// The mailbox side: deliveries remembered, own messages passed back, deposits (Part G).
    var mailbox: MailboxPolicy
    /// Set only through the `@_spi(Benchmark)` seam (BenchmarkSeam.swift); false in production.
    var skipsSignatureChecksForBenchmark = false

    /// Creates an engine.
    /// - Parameters:
    ///   - identity: the node's keys and ID.
    ///   - configuration: tunables.
    ///   - fragmenterLimits: reassembly caps and timeout.
    ///   - wallClockAtZero: milliseconds since the Unix epoch at engine time zero (for timestamps).
    ///   - random: the source of message and transfer IDs (seed it in the simulator).
    public init(
        identity: NodeIdentity, configuration: EngineConfiguration = EngineConfiguration(),
        fragmenterLimits: FragmenterLimits = FragmenterLimits(), wallClockAtZero: UInt64 = 0,
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.identity = identity
        self.configuration = configuration
        self.fragmenterLimits = fragmenterLimits
        self.time = MeshTime(wallClockAtZero: wallClockAtZero)
        self.random = random
        // Drawn from a copy: the engine's own sequence (message IDs, relay delays) is unchanged.
        var lookupSeedSource = random
        self.lookup = KeyLookup(configuration, seed: lookupSeedSource.next() ^ 0x4B45_594C_4F4F_4B55)
        self.bridge = BridgePolicy(configuration)
        self.router = FloodRouter(
            localNode: identity.nodeID, hopLimits: configuration.hopLimits,
            seen: SeenCache(capacity: configuration.seenCapacity, lifetime: configuration.seenLifetime),
            shorterPaths: ShorterPathMemory(capacity: configuration.shorterPathCapacity),
            freshness: configuration.freshness)
        switch configuration.relayScheduler {
        case .plain:
            self.scheduler = ImmediateRelayScheduler()
        case .managed(let parameters):
            // Relay delays are drawn from a generator seeded by the engine's own source (the
            // system's CSPRNG in the daemon, a seeded one in the simulator).
            var seedSource = random
            self.scheduler = ManagedRelayScheduler(parameters: parameters, random: SplitMix64(seed: seedSource.next()))
            self.random = seedSource
        }
        self.links = EngineLinks(fragmenterLimits: fragmenterLimits, admission: configuration.admission)
        self.neighbours = Neighbours(hold: configuration.hold)
        self.pacing = AnnouncementPacing(configuration)
        self.knownNodes = KnownNodes(
            capacity: configuration.maxKnownNodes, perNeighbour: configuration.maxKnownNodesPerNeighbour,
            lifetime: configuration.knownNodeLifetime)
        self.budgets = NeighbourBudgets(limits: configuration.budgets)
        self.mailbox = MailboxPolicy(configuration, wallClockAtZero: wallClockAtZero)
    }

    /// Counters of envelopes held for neighbours without a ready link.
    public var holdCounters: HoldCounters { neighbours.held.counters }

    /// This node's ID.
    public var nodeID: NodeID { identity.nodeID }

    /// This node's signed-profile contents.
    public var profile: Profile {
        identity.profile(displayName: configuration.displayName, icon: configuration.icon, role: configuration.role)
    }

    /// Replaces the relay scheduler (the managed-flooding seam).
    public func useScheduler(_ scheduler: any RelayScheduler) { self.scheduler = scheduler }

    /// What the relay scheduler did: relays scheduled, delayed, cancelled, targets pruned, overflow.
    public var relayCounters: RelaySchedulerCounters { scheduler.counters }

    /// When the relay scheduler next has a relay due, or nil when it holds none. Owners that
    /// tick more coarsely than relays are delayed call ``sendDueRelays(now:)`` at this time.
    public var nextRelayDue: Duration? {
        Self.earlier(Self.earlier(scheduler.nextDue, lookup.nextDue), bridge.relayHold.nextDue)
    }

    /// The earlier of two times, either of which may be missing (no array: the daemon asks after
    /// every batch of frames).
    private static func earlier(_ first: Duration?, _ second: Duration?) -> Duration? {
        guard let first, let second else { return first ?? second }
        return min(first, second)
    }

    /// What a gateway's hold of broker copies did (docs/PROTOCOL.md F4; `relay` group's `bridged_*`).
    public var bridgeHoldCounters: [String: UInt64] {
        let counters = bridge.relayHold.counters
        return [
            "bridged_held": counters.bridgedHeld, "bridged_skipped": counters.bridgedSkipped,
            "bridged_cancelled": counters.bridgedCancelled, "bridged_overflow": counters.bridgedOverflow,
        ]
    }

    /// Sends every relay the scheduler holds and every key answer that is due at `now`, and
    /// nothing else.
    public func sendDueRelays(now: Duration) -> [EngineAction] {
        flushRelays(now: now)
        sendDueAnswers(now: now)
        return takeActions()
    }

    /// Applies a reloaded hop-limit table (SIGHUP).
    public func reload(hopLimits: HopLimits) {
        configuration.hopLimits = hopLimits
        router.hopLimits = hopLimits
    }

    /// Handles one transport event and returns the actions it causes.
    public func handle(_ event: TransportEvent, now: Duration) -> [EngineAction] {
        switch event {
        case .linkUp(let info): linkUp(info, now: now)
        case .linkDown(let link, _): linkDown(link, now: now)
        case .mtuChanged(let link, let mtu): mtuChanged(link, mtu: mtu, now: now)
        case .rssiChanged(let link, let rssi): links.withLink(link) { $0.info.rssi = rssi }
        case .frameReceived(let link, let frame): frameReceived(frame, on: link, now: now)
        }
        return takeActions()
    }

    func takeActions() -> [EngineAction] {
        defer { actions.removeAll(keepingCapacity: true) }
        return actions
    }

    func emit(_ event: EngineEvent) { actions.append(.event(event)) }

    /// Mesh time learned from the neighbours (docs/PROTOCOL.md Part C, "Mesh time").
    public internal(set) var clock: MeshClock {
        get { time.clock }
        set { time.replace(newValue) }
    }

    /// Milliseconds since the Unix epoch at engine time zero.
    var wallClockAtZero: UInt64 { time.wallClockAtZero }

    /// The local wall clock at engine time `now`, in milliseconds since the Unix epoch.
    func localWall(at now: Duration) -> UInt64 { time.localWall(at: now) }

    /// Mesh time at `now`: what this node stamps on what it sends.
    func timestamp(at now: Duration) -> UInt64 { time.timestamp(at: now) }

    /// Counts a neighbour's own timestamp as its vote on mesh time (``MeshTime/hear(_:from:now:)``)
    /// and reports a first or large change of the estimate.
    func hearClock(_ envelope: Envelope, from sender: NodeID, now: Duration) {
        if let change = time.hear(envelope, from: sender, now: now) { emit(.meshClock(change)) }
    }

    func newMessageID() -> MessageID { MessageID(random: &random) }
}
