import Flooding
import MeshLink
import MeshProtocol

/// Everything the engine can be tuned with; defaults follow docs/PROTOCOL.md.
public struct EngineConfiguration: Sendable {
    /// The name people see.
    public var displayName: String
    /// A one-emoji icon.
    public var icon: String
    /// What this node is.
    public var role: NodeRole
    /// Per-kind hop limits.
    public var hopLimits: HopLimits
    /// How often a heartbeat goes to each neighbour.
    public var heartbeatInterval: Duration
    /// How long a neighbour may be silent, or without links, before it departs.
    public var departureGrace: Duration
    /// How long a new link may take to produce a valid profile before it is closed.
    public var handshakeTimeout: Duration
    /// The fewest time between two of our own join notices (later ones are coalesced).
    public var joinNoticeInterval: Duration
    /// How often a join notice is repeated while the node has neighbours, so nodes two
    /// hops away keep its keys (they forget remote nodes after `knownNodeLifetime`).
    public var joinNoticeRefreshInterval: Duration
    /// The fewest time between two answers to join notices from unknown nodes; newcomers
    /// who arrive in between are answered together by the next one.
    public var joinAnswerInterval: Duration
    /// How many IDs the seen cache holds.
    public var seenCapacity: Int
    /// How long the seen cache remembers an ID.
    public var seenLifetime: Duration
    /// How long remote nodes learned from join notices are remembered.
    public var knownNodeLifetime: Duration
    /// The most remote nodes remembered.
    public var maxKnownNodes: Int
    /// Whether plaintexts are padded to size buckets before sealing.
    public var padding: Bool
    /// Whether this node announces opaque link packets (PROTOCOL.md D14) and sends them to a peer
    /// that announced them; false behaves as a node before D14 (tests of mixed meshes).
    public var opaquePackets = true
    /// The mean time between cover packets on each opaque link (PROTOCOL.md D14); zero: none.
    public var coverInterval: Duration = .zero
    /// Whether the engine notes every transfer it sends (``MeshEngine/takeSentTransfers()``): the
    /// simulator's view of kinds and message IDs that opaque packets hide on the air.
    public var notesSentTransfers = false
    /// Messages sealed on one link key before a new key exchange.
    public var rekeyAfterMessages: UInt64
    /// Age of a link key before a new key exchange.
    public var rekeyInterval: Duration
    /// The guard interval of the key exchange ("do not send again within").
    public var keyExchangeGuard: Duration
    /// What is held for neighbours without a ready link, and for how long.
    public var hold: HoldLimits
    /// Recent message IDs remembered with their fewest hops, so a copy that comes later by a
    /// shorter path is relayed again (0: never).
    public var shorterPathCapacity: Int
    /// What one neighbour may cost the others: relay shares and the signature-check budget.
    public var budgets: BudgetLimits
    /// Which signed timestamps are accepted, against what the seen cache can vouch for.
    public var freshness: FreshnessRule
    /// The most remote nodes remembered as introduced by one neighbour (its join notices and
    /// messages), so one neighbour minting identities cannot push out what others taught us.
    public var maxKnownNodesPerNeighbour: Int
    /// Node IDs this node refuses as neighbours (empty: none).
    public var deniedNodes: Set<NodeID>
    /// When not empty, the only node IDs accepted as neighbours.
    public var allowedNodes: Set<NodeID>
    /// The budget, per-address limit and deadline of links still without link keys.
    public var admission = LinkAdmissionLimits()
    /// Frames one link may hand the engine, checked before reassembly and the link seal
    /// (PROTOCOL.md Part E, "Frames per link"); frames over it are only counted.
    public var frameBudget = FrameBudget.standard
    /// Which key exchanges this node speaks and accepts (PROTOCOL.md D3b).
    public var keyExchange: KeyExchangePolicy = .privateFirst
    /// How relays are scheduled: plain RelayChat flooding (the engine's default) or managed flooding.
    public var relayScheduler: RelaySchedulerChoice = .plain
    /// Whether this node keeps direct messages for unreachable recipients (PROTOCOL.md Part G):
    /// it then returns them as ``EngineAction/deposit(_:depositor:)``. Off in the engine, on in meshnoded.
    public var keepsMail = false
    /// A node heard through another node within this long counts as reachable: its mail is relayed, not deposited.
    public var mailReachWindow: Duration = .seconds(120)
    /// True when this node is a gateway of the MQTT bridge (docs/PROTOCOL.md Part F): messages and
    /// join notices it accepts or originates are also handed to the bridge (``EngineAction/uplink(_:)``),
    /// and it may originate with no radio neighbour.
    public var bridged = false
    /// The hops an envelope from the bridge carries into this island at most (docs/PROTOCOL.md Part F,
    /// "Hops"): one with more is re-based to this many, its route cut to the origin and its last
    /// entries, so it may travel the kind's limit minus this in this island. 0 (the default) gives it
    /// the kind's whole limit here, as if its origin were this gateway's neighbour.
    public var bridgeDownlinkHops: UInt8 = 0
    /// How long a gateway holds its relay of a copy from the broker before it goes to the radio
    /// neighbours that did not hand it the message meanwhile (docs/PROTOCOL.md F4). Zero sends at once.
    public var bridgeRelayHold: Duration = .milliseconds(200)
    /// How long after this node's first copy of a message a neighbour's duplicate may still teach
    /// managed flooding that neighbour's link claim (docs/PROTOCOL.md Part C). Shorter than
    /// ``bridgeRelayHold``, so a gateway's copy from the broker teaches none.
    public var claimWindow: Duration = .milliseconds(80)
    /// Key lookup: answer delay, budgets, timeout (docs/PROTOCOL.md Part H).
    public var lookup = KeyLookupLimits()
    /// The link acknowledgement and credit (docs/PROTOCOL.md D12).
    public var linkDelivery = LinkDeliveryLimits()
    /// How long a new link whose MTU is not settled (``LinkInfo/mtuSettled``) waits for its MTU
    /// exchange before this end sends its key exchange anyway. A key exchange split into 20-byte
    /// frames takes a slow radio seconds, long enough for the handshake to time out; an opening
    /// the peer sends meanwhile is answered at once.
    public var mtuExchangeWait: Duration = .seconds(1)

    /// Creates a configuration with the documented defaults.
    public init(
        displayName: String = "MeshNode relay", icon: String = "📡", role: NodeRole = .relay,
        hopLimits: HopLimits = .relayChatDefaults, heartbeatInterval: Duration = .seconds(10),
        departureGrace: Duration = .seconds(30), handshakeTimeout: Duration = .seconds(10),
        joinNoticeInterval: Duration = .seconds(5), joinNoticeRefreshInterval: Duration = .seconds(600),
        joinAnswerInterval: Duration = .seconds(30),
        seenCapacity: Int = 65_536,
        seenLifetime: Duration = .seconds(600), knownNodeLifetime: Duration = .seconds(1800),
        maxKnownNodes: Int = 4096, padding: Bool = true, rekeyAfterMessages: UInt64 = 10_000,
        rekeyInterval: Duration = .seconds(3600), keyExchangeGuard: Duration = .seconds(2),
        hold: HoldLimits = HoldLimits(), shorterPathCapacity: Int = 4096,
        budgets: BudgetLimits = BudgetLimits(), freshness: FreshnessRule = FreshnessRule(),
        maxKnownNodesPerNeighbour: Int = 1024,
        deniedNodes: Set<NodeID> = [], allowedNodes: Set<NodeID> = []
    ) {
        self.displayName = displayName
        self.icon = icon
        self.role = role
        self.hopLimits = hopLimits
        self.heartbeatInterval = heartbeatInterval
        self.departureGrace = departureGrace
        self.handshakeTimeout = handshakeTimeout
        self.joinNoticeInterval = joinNoticeInterval
        self.joinNoticeRefreshInterval = joinNoticeRefreshInterval
        self.joinAnswerInterval = joinAnswerInterval
        self.seenCapacity = seenCapacity
        self.seenLifetime = seenLifetime
        self.knownNodeLifetime = knownNodeLifetime
        self.maxKnownNodes = maxKnownNodes
        self.padding = padding
        self.rekeyAfterMessages = rekeyAfterMessages
        self.rekeyInterval = rekeyInterval
        self.keyExchangeGuard = keyExchangeGuard
        self.hold = hold
        self.shorterPathCapacity = shorterPathCapacity
        self.budgets = budgets
        self.freshness = freshness
        self.maxKnownNodesPerNeighbour = maxKnownNodesPerNeighbour
        self.deniedNodes = deniedNodes
        self.allowedNodes = allowedNodes
    }

    /// True when `node` may be a neighbour under the allow and deny lists.
    public func permits(_ node: NodeID) -> Bool {
        !deniedNodes.contains(node) && (allowedNodes.isEmpty || allowedNodes.contains(node))
    }
}

/// Which key exchanges a node speaks (PROTOCOL.md D3b, "Nodes of version 1").
public enum KeyExchangePolicy: String, Sendable, CaseIterable {
    /// Open with the private key exchange; answer a neighbour that speaks only version 1 with
    /// version 1, counting the link as not private.
    case privateFirst = "private_first"
    /// Speak only the private key exchange: a neighbour that sends version 1 is refused.
    case privateOnly = "private_only"
    /// Speak only version 1 and ignore hellos and proofs, as a node of an older release does
    /// (for interoperability tests).
    case legacyOnly = "legacy_only"
}
