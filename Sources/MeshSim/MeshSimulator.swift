import Mailbox
import MailboxCourier
import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol

/// A deterministic mesh on a virtual clock: N real engines, any topology, per-link MTU,
/// latency and loss, links going down and up on a script.
///
/// Every node runs the same `MeshEngine` the daemon runs, with real crypto. The
/// simulator owns time: it delivers frames after their latency, loses them by a seeded
/// draw and ticks every engine on a fixed period. Same seed, same run.
public final class MeshSimulator {
    enum Event {
        case frame(node: Int, link: LinkID, bytes: [UInt8], carried: SentTransfer?)
        case linkDown(node: Int, link: LinkID)
        case tick
        case relayWake(node: Int, at: Duration)
        case script((MeshSimulator) -> Void)
        case bridged(node: Int, bytes: [UInt8])
    }

    /// The nodes, by index.
    public private(set) var nodes: [SimNode]
    /// Virtual time since the start of the run.
    public private(set) var now: Duration = .zero
    /// How often every engine is ticked.
    public let tickInterval: Duration
    /// Frames lost by the loss draw.
    public private(set) var framesLost = 0
    /// Frames delivered to an engine.
    public private(set) var framesDelivered = 0
    /// When set, sees every frame put on the air (lost ones too) with its sender: a passive listener.
    public var listener: ((_ sender: Int, _ frame: [UInt8]) -> Void)?
    /// When set, a connection an engine closes (handshake timeout, silence) is dialled
    /// again after this delay, as a BLE central would.
    public var reconnectDelay: Duration?
    /// Who first handed each node each message, and every hand-back seen (see `MessageTrace`).
    public private(set) var trace = MessageTrace()
    /// The nodes that are MQTT gateways (docs/PROTOCOL.md Part F): their engines are `bridged`, and
    /// what one hands the bridge reaches every other one (MQTT 5 No Local) while ``brokerUp``.
    public let gateways: Set<Int>
    /// False while the simulated broker is away: what a gateway hands it meanwhile is lost (QoS 0).
    public var brokerUp = true
    /// How long the broker takes to hand an envelope on.
    public var brokerLatency: Duration = .milliseconds(5)
    /// Envelopes the broker handed to gateways.
    public private(set) var envelopesBridged = 0

    private let configuration: EngineConfiguration
    /// What each transfer in flight carries, noted by its sender until its last frame is sent.
    private var transfers: [TransferKey: SentTransfer] = [:]

    /// A transfer on one node's link.
    private struct TransferKey: Hashable {
        let node: Int
        let link: LinkID
        let transferID: UInt32
    }
    /// Configurations of single nodes that differ from `configuration` (an older node beside newer ones).
    private let nodeConfigurations: [Int: EngineConfiguration]
    /// Each node's wall clock at virtual time zero, in milliseconds since the Unix epoch.
    private let wallClocks: [UInt64]
    private var queue = EventQueue<Event>()
    private var random: SplitMix64
    private var nextLinkID: UInt64 = 1
    private var nextConnectionID = 0
    private var relayWakeups: [Int: Duration] = [:]
    private var live: [SimConnection: (centralLink: LinkID, peripheralLink: LinkID, spec: SimLinkSpec)] = [:]

    /// Creates `count` nodes with fresh identities. `wallClocks` gives node `i` the wall clock
    /// `wallClocks[i]` (milliseconds since the Unix epoch) at virtual time zero, so a node's
    /// clock can be set wrong; nodes it does not name start at 0. `nodeConfigurations` gives single nodes their own configuration.
    public init(
        nodeCount count: Int, seed: UInt64, configuration: EngineConfiguration = EngineConfiguration(),
        tickInterval: Duration = .milliseconds(250), wallClocks: [UInt64] = [],
        nodeConfigurations: [Int: EngineConfiguration] = [:], gateways: Set<Int> = []
    ) throws {
        self.configuration = configuration
        self.nodeConfigurations = nodeConfigurations
        self.gateways = gateways
        self.wallClocks = (0..<count).map { $0 < wallClocks.count ? wallClocks[$0] : 0 }
        self.tickInterval = tickInterval
        self.random = SplitMix64(seed: seed)
        var nodes: [SimNode] = []
        for index in 0..<count {
            let identity = try Self.identity(seed: seed, index: index)
            var config = nodeConfigurations[index] ?? configuration
            config.displayName = "node-\(index)"
            config.bridged = gateways.contains(index)
        config.notesSentTransfers = true
            let engine = MeshEngine(
                identity: identity, configuration: config, wallClockAtZero: self.wallClocks[index],
                random: SplitMix64(seed: seed &+ UInt64(index) &* 7919))
            nodes.append(SimNode(identity: identity, engine: engine))
        }
        self.nodes = nodes
        queue.push(.tick, at: .zero)
    }

    /// A node identity derived from the run's seed, so node IDs (and with them every
    /// ordering by node ID) are the same in every run with that seed. Test keys only.
    static func identity(seed: UInt64, index: Int) throws -> NodeIdentity {
        func scalar(_ label: String) throws -> [UInt8] {
            var input = Array(label.utf8)
            for shift in stride(from: 56, through: 0, by: -8) { input.append(UInt8(truncatingIfNeeded: seed >> UInt64(shift))) }
            input.append(contentsOf: withUnsafeBytes(of: UInt64(index).bigEndian) { Array($0) })
            return try SHA256Digest.hash(input)
        }
        return try NodeIdentity(
            signingKey: P256SigningKey(rawRepresentation: scalar("meshsim signing")),
            agreementKey: P256KeyAgreementKey(rawRepresentation: scalar("meshsim agreement")))
    }

    /// Connects two nodes now: `central` dials `peripheral`.
    @discardableResult
    public func connect(_ central: Int, _ peripheral: Int, spec: SimLinkSpec = SimLinkSpec()) -> SimConnection {
        let connection = SimConnection(id: nextConnectionID, central: central, peripheral: peripheral)
        nextConnectionID += 1
        bringUp(connection, spec: spec)
        return connection
    }

    /// Takes a connection down now (both ends see it go).
    public func disconnect(_ connection: SimConnection) {
        guard let link = live.removeValue(forKey: connection) else { return }
        handle(.linkDown(link.centralLink, reason: "simulated"), node: connection.central)
        handle(.linkDown(link.peripheralLink, reason: "simulated"), node: connection.peripheral)
    }

    /// Brings a connection that went down back up with new link IDs.
    public func reconnect(_ connection: SimConnection, spec: SimLinkSpec = SimLinkSpec()) {
        guard live[connection] == nil else { return }
        bringUp(connection, spec: spec)
    }

    /// True while a connection is up.
    public func isUp(_ connection: SimConnection) -> Bool { live[connection] != nil }

    /// Restarts a node: its links drop, it gets a new engine with the same identity, and
    /// the connections it had come back up at once.
    public func restart(_ index: Int) {
        let affected = live.keys.filter { $0.central == index || $0.peripheral == index }.sorted { $0.id < $1.id }
        let specs = affected.map { live[$0]!.spec }
        for connection in affected { disconnect(connection) }
        var config = nodeConfigurations[index] ?? configuration
        config.displayName = "node-\(index)"
        config.bridged = gateways.contains(index)
        config.notesSentTransfers = true
        // The node's wall clock keeps running across the restart, as a real one does.
        let (seconds, attoseconds) = now.components
        let elapsed = UInt64(seconds) &* 1000 &+ UInt64(attoseconds / 1_000_000_000_000_000)
        nodes[index].engine = MeshEngine(
            identity: nodes[index].identity, configuration: config, wallClockAtZero: wallClocks[index] &+ elapsed,
            random: SplitMix64(seed: random.next()))
        // A restart is a crash for the mailbox: what the last tick did not commit is gone.
        nodes[index].mailbox = nil
        try? openMailbox(index)
        for (connection, spec) in zip(affected, specs) { bringUp(connection, spec: spec) }
    }

    /// Gives node `index` a mailbox in the SQLite database at `path` (the engines must be
    /// configured with `keepsMail`). A restart reopens it: what the last tick committed survives.
    public func keepMail(at index: Int, path: String, limits: MailboxLimits = MailboxLimits()) throws {
        nodes[index].mailboxPath = path
        nodes[index].mailboxLimits = limits
        try openMailbox(index)
    }

    private func openMailbox(_ index: Int) throws {
        guard let path = nodes[index].mailboxPath else { return }
        let engine = nodes[index].engine
        let store = try MailboxStore.open(path: path, limits: nodes[index].mailboxLimits, now: engine.meshTime(at: now)).store
        engine.restoreDeliveries(try store.deliveredRecords(), vouchedSince: store.memorySince, now: now)
        nodes[index].mailbox = MailboxCourier(store: store)
    }

    /// Runs `action` at virtual time `time`.
    public func at(_ time: Duration, _ action: @escaping (MeshSimulator) -> Void) {
        queue.push(.script(action), at: time)
    }

    /// Originates a chat message now from node `index`.
    @discardableResult
    public func send(from index: Int, text: String, to destination: Int? = nil) throws -> MessageID {
        let (sent, actions) = try nodes[index].engine.send(
            text: text, to: destination.map { nodes[$0].nodeID }, now: now)
        perform(actions, node: index)
        return sent.messageID
    }

    /// Sends a direct message now from node `index` to node `destination`, looking up the
    /// destination's key first when node `index` does not know it (docs/PROTOCOL.md Part H).
    @discardableResult
    public func sendLookingUp(from index: Int, text: String, to destination: Int) throws -> SendOrLookup {
        let (outcome, actions) = try nodes[index].engine.sendOrLookUp(text: text, to: nodes[destination].nodeID, now: now)
        perform(actions, node: index)
        return outcome
    }

    /// Advances virtual time by `duration`, processing every event due.
    public func run(for duration: Duration) {
        let end = now + duration
        while let next = queue.nextTime, next <= end, let (time, event) = queue.pop() {
            now = time
            process(event)
        }
        now = end
    }

    private func process(_ event: Event) {
        switch event {
        case .frame(let node, let link, let bytes, let carried):
            guard let endpoint = nodes[node].endpoints[link] else { return }
            framesDelivered += 1
            if let carried { trace.delivered(carried, to: node, from: endpoint.peerNode) }
            handle(.frameReceived(link, bytes), node: node)
        case .linkDown(let node, let link):
            handle(.linkDown(link, reason: "peer closed"), node: node)
        case .tick:
            for index in nodes.indices {
                perform(nodes[index].engine.tick(now: now), node: index)
                tickMailbox(index)
            }
            queue.push(.tick, at: now + tickInterval)
        case .relayWake(let node, let time):
            guard relayWakeups[node] == time else { return }
            relayWakeups[node] = nil
            perform(nodes[node].engine.sendDueRelays(now: now), node: node)
        case .script(let action):
            action(self)
        case .bridged(let node, let bytes):
            // The broker carries bytes; the gateway decodes them as its bridge would.
            guard let envelope = try? Envelope(decoding: bytes) else { return }
            envelopesBridged += 1
            perform(nodes[node].engine.receiveBridged(envelope, now: now), node: node)
        }
    }

    private func bringUp(_ connection: SimConnection, spec: SimLinkSpec) {
        let centralLink = LinkID(nextLinkID)
        let peripheralLink = LinkID(nextLinkID + 1)
        nextLinkID += 2
        live[connection] = (centralLink, peripheralLink, spec)
        nodes[connection.central].endpoints[centralLink] = SimEndpoint(
            connection: connection, peerNode: connection.peripheral, peerLink: peripheralLink, spec: spec)
        nodes[connection.peripheral].endpoints[peripheralLink] = SimEndpoint(
            connection: connection, peerNode: connection.central, peerLink: centralLink, spec: spec)
        handle(.linkUp(LinkInfo(id: centralLink, role: .central, remoteAddress: "sim:\(connection.peripheral)", mtu: spec.mtu)),
               node: connection.central)
        handle(.linkUp(LinkInfo(id: peripheralLink, role: .peripheral, remoteAddress: "sim:\(connection.central)", mtu: spec.mtu)),
               node: connection.peripheral)
    }

    private func handle(_ event: TransportEvent, node: Int) {
        if case .linkDown(let link, _) = event { nodes[node].endpoints[link] = nil }
        perform(nodes[node].engine.handle(event, now: now), node: node)
    }

    /// Performs node `node`'s engine actions in order and says whether every frame among them had a link to go on.
    @discardableResult
    func perform(_ actions: [EngineAction], node: Int) -> Bool {
        for sent in nodes[node].engine.takeSentTransfers() {
            transfers[TransferKey(node: node, link: sent.link, transferID: sent.transferID)] = sent
        }
        var taken = true
        for action in actions {
            switch action {
            case .send(let frame, let link):
                taken = transmit(frame, from: node, on: link) && taken
            case .disconnect(let link):
                guard let endpoint = nodes[node].endpoints.removeValue(forKey: link) else { continue }
                live[endpoint.connection] = nil
                queue.push(.linkDown(node: endpoint.peerNode, link: endpoint.peerLink), at: now + endpoint.spec.latency)
                if let delay = reconnectDelay {
                    let connection = endpoint.connection
                    let spec = endpoint.spec
                    at(now + delay) { $0.reconnect(connection, spec: spec) }
                }
            case .deposit(let envelope, let depositor):
                _ = nodes[node].mailbox?.deposit(envelope, depositor: depositor, meshNow: nodes[node].engine.meshTime(at: now))
            case .rememberDelivery(let id, let expiresAt):
                nodes[node].mailbox?.rememberDelivery(id, until: expiresAt)
            case .preferLink:
                break  // the simulator keeps no slot table
            case .event(let event):
                nodes[node].events.append(event)
                if case .delivered(let message) = event {
                    nodes[node].delivered.append(message)
                    nodes[node].deliveredAt.append(now)
                }
            case .uplink(let envelope):
                guard brokerUp, gateways.contains(node) else { break }
                let bytes = envelope.encoded()
                for gateway in gateways.sorted() where gateway != node {
                    queue.push(.bridged(node: gateway, bytes: bytes), at: now + brokerLatency)
                }
            }
        }
        armRelayWakeup(node)
        return taken
    }

    private func tickMailbox(_ index: Int) {
        guard let mailbox = nodes[index].mailbox else { return }
        _ = mailbox.tick(engine: nodes[index].engine, now: now, perform: { perform($0, node: index) })
    }

    /// Wakes a node when its relay scheduler next has a relay due, between ticks.
    private func armRelayWakeup(_ node: Int) {
        guard let due = nodes[node].engine.nextRelayDue else { return }
        let time = max(due, now)
        if let armed = relayWakeups[node], armed <= time { return }
        relayWakeups[node] = time
        queue.push(.relayWake(node: node, at: time), at: time)
    }

    /// Puts a frame on its way (or loses it to the link's loss rate); false when the link is gone.
    private func transmit(_ frame: [UInt8], from node: Int, on link: LinkID) -> Bool {
        guard let endpoint = nodes[node].endpoints[link], let kind = frame.first else {
            nodes[node].engine.recordSendFailure(.gone, on: link)
            return false
        }
        listener?(node, frame)
        // What the frame carries, as its sender noted it: opaque packets (PROTOCOL.md D14) hide it
        // on the air. Header (PROTOCOL.md B1): kind, transfer ID, sequence, total.
        var carried: SentTransfer?
        var carriedKind = kind
        if frame.count >= 9 {
            let field = { (offset: Int, count: Int) in frame[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt32($1) } }
            let key = TransferKey(node: node, link: link, transferID: field(1, 4))
            let (sequence, total) = (field(5, 2), field(7, 2))
            if let note = transfers[key] { carriedKind = note.kind }
            if sequence == 0 {
                carried = transfers[key]
                nodes[node].transfersSent[carriedKind, default: 0] += 1
            }
            if sequence + 1 == total { transfers[key] = nil }
        }
        nodes[node].framesSent[carriedKind, default: 0] += 1
        if let carried { trace.sent(carried, from: node, to: endpoint.peerNode) }
        if endpoint.spec.loss > 0, Double(random.next() >> 11) / Double(1 << 53) < endpoint.spec.loss {
            framesLost += 1
            return true
        }
        queue.push(
            .frame(node: endpoint.peerNode, link: endpoint.peerLink, bytes: frame, carried: carried), at: now + endpoint.spec.latency)
        return true
    }
}
