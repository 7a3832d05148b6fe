import MeshLink
import MeshProtocol

/// The UDP transport's link bookkeeping as a pure value: datagrams and ticks in, actions out.
///
/// Time is a `Duration` since an arbitrary origin, given by the caller, so every rule
/// (retry, keepalive, timeout, restart detection) is tested without sockets or clocks.
struct UDPLinkTable: Sendable {
    /// Something the transport must do.
    enum Action: Sendable {
        /// Send a datagram.
        case send(UDPDatagram, to: UDPEndpoint)
        /// Report an event to the node.
        case emit(TransportEvent)
    }

    /// What `planSend` decided for one frame.
    enum SendPlan: Equatable, Sendable {
        /// No such link.
        case gone
        /// The frame exceeds the link MTU.
        case tooLong(mtu: Int)
        /// Dropped by the configured loss.
        case lost
        /// Send this datagram.
        case send(UDPDatagram, to: UDPEndpoint)
    }

    /// One live link.
    struct Link: Sendable {
        let id: LinkID
        let role: LinkRole
        let remote: UDPEndpoint
        let nonce: UInt64
        /// The instance number the remote end sent: "peer" in transport terms, the other end of
        /// this UDP link (the engine calls the node there a neighbour).
        let peerInstance: UInt64
        let mtu: Int
        var lastHeard: Duration
        var lastSent: Duration
        /// When the link came up; the oldest unkeyed link is displaced first.
        let openedAt: Duration
        /// Set when the engine reports the link's key exchange done (`markKeyed`).
        var keyed = false
        /// The challenge sent last on this link, if its answer is still awaited.
        var challenge: OutstandingChallenge?
        /// When the last challenge went out, answered or not: the next waits a keepalive interval.
        var lastChallengeAt: Duration?
        /// The value of the last challenge we sent, answered or not: a "gone" echoing it ends the link.
        var lastChallengeValue: UInt64?
        /// The value of the last challenge the peer sent us that we answered "still here": echoed
        /// with "gone" when we stop, as proof that the end of the link comes from us.
        var peerChallengeValue: UInt64?
        /// The reason of a trigger that came within that interval: challenged when it has passed.
        var heldTrigger: String?
        /// What is left of the configuration's frame budget.
        var frames = FrameAllowance()
    }

    /// A challenge sent on a link and the reason it was sent.
    struct OutstandingChallenge: Sendable {
        let value: UInt64
        let sentAt: Duration
        /// The link-down reason if the peer confirms it is gone.
        let reason: String
    }

    struct LinkKey: Hashable, Sendable {
        let remote: UDPEndpoint
        let nonce: UInt64
        let role: LinkRole
    }

    /// A configured neighbour and our central-side progress with it.
    struct Neighbour: Sendable {
        enum State: Equatable, Sendable {
            /// No link yet: connect with `nonce` at `nextAttempt`.
            case connecting(nonce: UInt64, nextAttempt: Duration)
            /// The central link is up.
            case up(LinkID)
        }
        let endpoint: UDPEndpoint
        var state: State
        /// Found by LAN discovery (dropped when discovery forgets it), not configured.
        var discovered = false
    }

    /// This process's random instance number.
    let instance: UInt64
    let configuration: UDPTransportConfiguration
    var random: any RandomNumberGenerator & Sendable
    var links: [LinkID: Link] = [:]
    var keys: [LinkKey: LinkID] = [:]
    var neighbours: [Neighbour]
    private var lastLinkNumber: UInt64 = 0
    var counters = UDPTransportCounters()
    /// What is left of `closeBudget`.
    private var closeAllowance = FrameAllowance()
    /// What is left of `connectBudget`, per connecting host.
    private var connectAllowances: [ConnectSource: FrameAllowance] = [:]
    /// The allowance hosts past `connectHostsTracked` share.
    private var overflowConnectAllowance = FrameAllowance()
    /// Addresses whose links were keyed lately (and configured neighbours): never displaced by strangers.
    var keyedEndpoints = RecentEndpoints(capacity: 256, lifetime: .seconds(600))

    /// Creates a table; every neighbour is due for a connect at time zero. Instance numbers
    /// and link nonces come from `random`: the system's secure source in the daemon.
    init(configuration: UDPTransportConfiguration, random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        self.configuration = configuration
        var random = random
        instance = random.next()
        neighbours = configuration.neighbours.map { Neighbour(endpoint: $0, state: .connecting(nonce: random.next(), nextAttempt: .zero)) }
        self.random = random
        for endpoint in configuration.neighbours { keyedEndpoints.pin(endpoint) }
    }

    /// A table on a seeded generator, for tests: the same seed gives the same nonces.
    init(configuration: UDPTransportConfiguration, seed: UInt64) {
        self.init(configuration: configuration, random: SplitMix64(seed: seed))
    }

    /// Handles one datagram from a loopback source.
    mutating func receive(_ bytes: [UInt8], from source: UDPEndpoint, now: Duration) -> [Action] {
        counters.datagramsReceived += 1
        let datagram: UDPDatagram
        do {
            datagram = try UDPDatagram(decoding: bytes)
        } catch {
            switch error {
            case .truncated: counters.truncatedDatagrams += 1
            case .oversized: counters.oversizedDatagrams += 1
            case .unknownType: counters.unknownTypes += 1
            case .malformed: counters.malformedDatagrams += 1
            }
            return []
        }
        switch datagram.type {
        case .connect:
            guard admitConnect(from: source, now: now) else {
                counters.connectsOverBudget += 1
                return []
            }
            return acceptConnect(datagram, from: source, now: now)
        case .accept: return completeConnect(datagram, from: source, now: now)
        case .frame, .keepalive, .close: return linkTraffic(datagram, from: source, now: now)
        case .challenge: return answerChallenge(datagram, from: source)
        case .answer: return receiveAnswer(datagram, from: source, now: now)
        }
    }

    private mutating func acceptConnect(_ datagram: UDPDatagram, from source: UDPEndpoint, now: Duration) -> [Action] {
        let accept = UDPDatagram(type: .accept, fromCentral: false, instance: instance,
                                 linkNonce: datagram.linkNonce, body: UDPDatagram.mtuBody(configuration.mtu))
        if let id = keys[LinkKey(remote: source, nonce: datagram.linkNonce, role: .peripheral)] {
            links[id]?.lastHeard = now
            return [.send(accept, to: source)]
        }
        // A new nonce: the peer re-dialled (or someone forged its address). Its other links
        // are challenged, not closed; this connect is a new link.
        var actions = challengeSuperseded(source, instance: datagram.instance, newConnect: true, now: now)
        actions += makeRoom(for: source, now: now)
        guard links.count < configuration.maxLinks else {
            counters.rejectedFull += 1
            return actions + [.send(closeDatagram(datagram.linkNonce, role: .peripheral), to: source)]
        }
        let link = addLink(role: .peripheral, remote: source, datagram: datagram, now: now)
        actions.append(.send(accept, to: source))
        actions.append(.emit(.linkUp(info(link))))
        return actions
    }

    private mutating func completeConnect(_ datagram: UDPDatagram, from source: UDPEndpoint, now: Duration) -> [Action] {
        guard let index = neighbours.firstIndex(where: { $0.endpoint == source }) else {
            return refuseUnknown(datagram.linkNonce, role: .central, to: source, now: now)
        }
        switch neighbours[index].state {
        case .connecting(let nonce, _) where nonce == datagram.linkNonce:
            var actions = challengeSuperseded(source, instance: datagram.instance, newConnect: false, now: now)
            actions += makeRoom(for: source, now: now)
            guard links.count < configuration.maxLinks else {
                counters.rejectedFull += 1
                return actions + [.send(closeDatagram(datagram.linkNonce, role: .central), to: source)]
            }
            let link = addLink(role: .central, remote: source, datagram: datagram, now: now)
            neighbours[index].state = .up(link.id)
            actions.append(.emit(.linkUp(info(link))))
            return actions
        case .up(let id) where links[id]?.nonce == datagram.linkNonce && links[id]?.peerInstance == datagram.instance:
            links[id]?.lastHeard = now
            return []
        default:
            return refuseUnknown(datagram.linkNonce, role: .central, to: source, now: now)
        }
    }

    /// Counts a datagram for a link this side does not know and answers it with a close, at most
    /// `closeBudget` a second in all: garbage from a host on the LAN costs no reply beyond that.
    private mutating func refuseUnknown(_ nonce: UInt64, role: LinkRole, to source: UDPEndpoint, now: Duration) -> [Action] {
        counters.unknownLinks += 1
        guard closeAllowance.admit(at: now, under: Self.closeBudget) else {
            counters.closesWithheld += 1
            return []
        }
        return [.send(closeDatagram(nonce, role: role), to: source)]
    }

    /// Spends one connect of `source`'s host (its port too on loopback, where every local node
    /// shares the host) if it has one left: a flood of connects from one LAN host is dropped here,
    /// before any link is opened or key exchange signed. At most `connectHostsTracked` hosts
    /// have an allowance of their own; past that, idle ones are forgotten, and new hosts share one.
    private mutating func admitConnect(from source: UDPEndpoint, now: Duration) -> Bool {
        let host = ConnectSource(source)
        if connectAllowances[host] == nil, connectAllowances.count >= Self.connectHostsTracked {
            let budget = Self.connectBudget
            connectAllowances = connectAllowances.filter { !$0.value.isIdle(at: now, under: budget) }
        }
        let budget = Self.connectBudget
        if connectAllowances[host] == nil, connectAllowances.count >= Self.connectHostsTracked {
            return overflowConnectAllowance.admit(at: now, under: budget)
        }
        return connectAllowances[host, default: FrameAllowance()].admit(at: now, under: budget)
    }

    /// Connects one host may send: an honest central repeats its connect once a `connect_interval`
    /// (1 s) per link until accepted.
    static let connectBudget = FrameBudget(framesPerSecond: 10, burst: 20)
    /// Hosts with a connect allowance of their own.
    static let connectHostsTracked = 256

    /// Closes answering datagrams for unknown links, all sources together: ample for peers whose
    /// link this side dropped (each repeats once a keepalive interval).
    static let closeBudget = FrameBudget(framesPerSecond: 200, burst: 200)

    private mutating func linkTraffic(_ datagram: UDPDatagram, from source: UDPEndpoint, now: Duration) -> [Action] {
        let role: LinkRole = datagram.fromCentral ? .peripheral : .central
        // A close matches on address, nonce and role alone: a restarted peer answers our
        // traffic for a link it no longer knows with its new instance number.
        guard let id = keys[LinkKey(remote: source, nonce: datagram.linkNonce, role: role)],
              let link = links[id], link.peerInstance == datagram.instance || datagram.type == .close else {
            if datagram.type == .close {
                counters.unknownLinks += 1
                return []
            }
            return refuseUnknown(datagram.linkNonce, role: role, to: source, now: now)
        }
        switch datagram.type {
        case .close:
            // Anyone who knows the address and nonce can send a close: ask the address first.
            return challenge(id, reason: "closed by peer", now: now)
        case .frame:
            links[id]?.lastHeard = now
            // Before anything else is done with it: a flooding link's frame costs a counter here.
            let budget = configuration.frameBudget
            guard links[id]?.frames.admit(at: now, under: budget) == true else {
                counters.framesOverBudget += 1
                return []
            }
            guard datagram.body.count <= link.mtu else {
                counters.oversizedFrames += 1
                return []
            }
            counters.framesReceived += 1
            return [.emit(.frameReceived(id, datagram.body))]
        default:
            links[id]?.lastHeard = now
            return []
        }
    }

    private mutating func addLink(role: LinkRole, remote: UDPEndpoint, datagram: UDPDatagram, now: Duration) -> Link {
        lastLinkNumber += 1
        let link = Link(
            id: LinkID(lastLinkNumber), role: role, remote: remote, nonce: datagram.linkNonce,
            peerInstance: datagram.instance, mtu: min(configuration.mtu, datagram.mtu ?? UDPDatagram.minFrameSize),
            lastHeard: now, lastSent: now, openedAt: now)
        links[link.id] = link
        keys[LinkKey(remote: remote, nonce: link.nonce, role: role)] = link.id
        counters.linksUp += 1
        return link
    }

    /// Removes a link; a central link's neighbour becomes due for a new connect at once.
    mutating func removeLink(_ id: LinkID, reason: String, notifyPeer: Bool, now: Duration) -> [Action] {
        guard let link = links.removeValue(forKey: id) else { return [] }
        keys[LinkKey(remote: link.remote, nonce: link.nonce, role: link.role)] = nil
        counters.linksDown += 1
        var actions: [Action] = []
        if notifyPeer { actions.append(.send(closeDatagram(link.nonce, role: link.role), to: link.remote)) }
        if let index = neighbours.firstIndex(where: { $0.state == .up(id) }) {
            neighbours[index].state = .connecting(nonce: random.next(), nextAttempt: now)
        }
        actions.append(.emit(.linkDown(id, reason: reason)))
        return actions
    }

    func closeDatagram(_ nonce: UInt64, role: LinkRole) -> UDPDatagram {
        UDPDatagram(type: .close, fromCentral: role == .central, instance: instance, linkNonce: nonce)
    }

    func info(_ link: Link) -> LinkInfo {
        LinkInfo(
            id: link.id, role: link.role, remoteAddress: link.remote.description, mtu: link.mtu,
            admissionAddress: link.remote.isLoopback ? link.remote.description : link.remote.host)
    }
}

/// What a connect budget is kept per: the host, and on loopback also the port.
struct ConnectSource: Hashable, Sendable {
    let ipv6: IPv6Address?
    let ipv4: UInt32
    let port: UInt16

    init(_ endpoint: UDPEndpoint) {
        ipv6 = endpoint.family == .ipv6 ? endpoint.ipv6 : nil
        ipv4 = endpoint.ipv4
        port = endpoint.isLoopback ? endpoint.port : 0
    }
}
