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
    public internal(set) var linkCounters = LinkCounters()

    var router: FloodRouter
    var scheduler: any RelayScheduler
    var neighbourTable = NeighbourTable()
    var links: [LinkID: LinkState] = [:]
    var reassemblers: LinkReassemblers<LinkID>
    var knownNodes: KnownNodes
    var budgets: NeighbourBudgets
    var held: HoldQueue
    var recentJoins = RecentJoinNotices()
    lazy var admission = LinkAdmission(limits: configuration.admission)
    var profiles: [NodeID: Profile] = [:] {
        didSet { profileChanges &+= 1 }
    }
    /// Counts changes of `profiles` (see `RelayTargetCache`).
    var profileChanges: UInt64 = 0
    var relayTargetCache = RelayTargetCache()
    var random: any RandomNumberGenerator & Sendable
    let fragmenterLimits: FragmenterLimits
    let wallClockAtZero: UInt64
    var pacing: AnnouncementPacing
    var actions: [EngineAction] = []
    var originKeys = OriginKeyCache()
    /// Whether and when this node answers key requests (docs/PROTOCOL.md Part H).
    var answerPlanner: KeyAnswerPlanner
    /// Key lookups this node started, with the messages waiting for their keys.
    var lookups: PendingLookups
    /// The neighbour each relayed key request came from, for its answers.
    var reversePaths = ReversePaths(capacity: 1024, lifetime: .seconds(30))
    /// The key requests this gateway published to the bridge, for the answers it lets in.
    var publishedRequests = PublishedRequests(capacity: 1024, lifetime: .seconds(30))
    /// Signed profiles this node can hand on in key answers.
    var signedProfiles: SignedProfiles
    /// A gateway's relays of broker copies, held before they go to its radio neighbours (Part F, F4).
    var bridgeHold: BridgeRelayHold
    /// What the requesting side of key lookup did.
    var lookupRequesterCounters = KeyLookupCounters()
    /// Mesh time learned from the neighbours (docs/PROTOCOL.md Part C, "Mesh time").
    public internal(set) var clock = MeshClock()
    /// Direct messages delivered here, remembered for the mailbox horizon (PROTOCOL.md Part G).
    var deliveries: DirectDeliveryMemory
    /// Own direct messages a mailbox's copy brought back and this node passed to their recipient.
    var passedBack: Set<MessageID> = []
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
        self.wallClockAtZero = wallClockAtZero
        self.random = random
        // Drawn from a copy: the engine's own sequence (message IDs, relay delays) is unchanged.
        var lookupSeedSource = random
        self.answerPlanner = KeyAnswerPlanner(limits: configuration.lookup, seed: lookupSeedSource.next() ^ 0x4B45_594C_4F4F_4B55)
        self.lookups = PendingLookups(limits: configuration.lookup)
        self.signedProfiles = SignedProfiles(capacity: configuration.maxKnownNodes)
        self.bridgeHold = BridgeRelayHold(hold: configuration.bridgeRelayHold)
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
        self.reassemblers = LinkReassemblers(limits: fragmenterLimits)
        self.held = HoldQueue(limits: configuration.hold)
        self.pacing = AnnouncementPacing(configuration)
        self.knownNodes = KnownNodes(
            capacity: configuration.maxKnownNodes, perNeighbour: configuration.maxKnownNodesPerNeighbour,
            lifetime: configuration.knownNodeLifetime)
        self.budgets = NeighbourBudgets(limits: configuration.budgets)
        self.deliveries = DirectDeliveryMemory(
            skewMilliseconds: UInt64(max(0, configuration.freshness.maxClockSkew.components.seconds)) * 1000,
            vouchedSince: wallClockAtZero)
    }

    /// Counters of envelopes held for neighbours without a ready link.
    public var holdCounters: HoldCounters { held.counters }

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
        [scheduler.nextDue, answerPlanner.nextDue, bridgeHold.nextDue].compactMap { $0 }.min()
    }

    /// What a gateway's hold of broker copies did (docs/PROTOCOL.md F4; `relay` group's `bridged_*`).
    public var bridgeHoldCounters: [String: UInt64] {
        let counters = bridgeHold.counters
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
        case .rssiChanged(let link, let rssi): links[link]?.info.rssi = rssi
        case .frameReceived(let link, let frame): frameReceived(frame, on: link, now: now)
        }
        return takeActions()
    }

    func takeActions() -> [EngineAction] {
        defer { actions.removeAll(keepingCapacity: true) }
        return actions
    }

    func emit(_ event: EngineEvent) { actions.append(.event(event)) }

    /// The local wall clock at engine time `now`, in milliseconds since the Unix epoch.
    func localWall(at now: Duration) -> UInt64 {
        let (seconds, attoseconds) = now.components
        return wallClockAtZero &+ UInt64(max(0, seconds)) &* 1000 &+ UInt64(max(0, attoseconds) / 1_000_000_000_000_000)
    }

    /// Mesh time at `now`: what this node stamps on what it sends.
    func timestamp(at now: Duration) -> UInt64 { clock.meshTime(localWall: localWall(at: now)) }

    /// Counts a neighbour's own authenticated timestamp (hops 0, origin = the neighbour) as its
    /// vote on mesh time, and reports a first or large change of the estimate.
    func hearClock(_ envelope: Envelope, from sender: NodeID, now: Duration) {
        guard envelope.origin == sender, envelope.hops == 0 else { return }
        if let change = clock.observe(sender, timestamp: envelope.timestamp, localWall: localWall(at: now), now: now) {
            emit(.meshClock(change))
        }
    }

    func newMessageID() -> MessageID { MessageID(random: &random) }
}
