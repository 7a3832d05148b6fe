import MeshLink

/// LAN discovery as a pure value: announcements and ticks in, actions out (docs/PROTOCOL.md,
/// "LAN discovery"). It decides when to announce (a jittered period from an injected random
/// source), which announcers to dial (at most `maxNeighbours`, never ourselves, nor one already
/// linked or lately failed, one announcement per source per `sourceInterval`), and when to forget
/// them. Of two announcers only the one with the lower instance tag dials; the other waits
/// `dialFallback` for it before dialling itself, so a pair keeps one link. Time is a `Duration` since an arbitrary origin, given by the caller; no sockets.
public struct LANDiscovery: Sendable {
    /// Something the transport must do.
    public enum Action: Equatable, Sendable {
        /// Send these bytes to the group.
        case announce([UInt8])
        /// Dial this endpoint as a neighbour (again, if it already is one: no change).
        case dial(UDPEndpoint)
        /// Stop dialling this endpoint (a static peer is never dropped).
        case forget(UDPEndpoint)
    }

    /// One heard announcer, by its source address.
    struct Announcer: Equatable, Sendable {
        enum State: Equatable, Sendable {
            /// Heard, not dialled (no room yet, or just out of its hold-off).
            case heard
            /// Dialled at `since`, no link yet.
            case dialling(since: Duration)
            /// A link to its endpoint is up (either role).
            case linked
            /// Its dial failed: not dialled again before `until`.
            case heldOff(until: Duration)
            /// Its tag is lower, so it dials us: dialled by us only if no link is up at `until`.
            case waiting(until: Duration)
        }
        var port: UInt16
        /// Its instance tag, from its latest announcement: the lower of two tags dials, and one node
        /// heard at two addresses (both families) is dialled once.
        var tag: UInt32
        var lastHeard: Duration
        var state: State
    }

    /// The rules and this node's announcement.
    public private(set) var configuration: LANDiscoveryConfiguration
    /// What discovery has seen and done.
    public private(set) var counters = LANDiscoveryCounters()
    private(set) var announcers: [AnnouncementSource: Announcer] = [:]
    private var nextAnnouncement: Duration = .zero
    private var lastAnnouncement: Duration?
    private var random: any RandomNumberGenerator & Sendable

    /// Creates discovery; the first announcement is due at time zero. Jitter comes from `random`.
    public init(configuration: LANDiscoveryConfiguration, random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        self.configuration = configuration
        self.random = random
    }

    /// When the next announcement is due.
    public var nextAnnouncementAt: Duration { nextAnnouncement }

    /// Announcers dialled or linked now: what the neighbour cap counts.
    public var neighbourCount: Int {
        announcers.values.count { if case .heard = $0.state { false } else if case .heldOff = $0.state { false } else { true } }
    }

    /// Whether this node dials an announcer with `tag`: the lower instance tag of the two dials.
    func dialsFirst(_ tag: UInt32) -> Bool { configuration.announcement.instanceTag < tag }

    /// The endpoint an announcer at `address` is dialled on.
    func endpoint(_ address: AnnouncementSource, _ announcer: Announcer) -> UDPEndpoint? {
        configuration.endpoint(address, port: announcer.port)
    }

    /// Takes the interface's addresses now (``InterfaceChange``); announcers no longer on its link
    /// are forgotten, and their dials stopped.
    public mutating func follow(address: UInt32?, subnet: IPv4Subnet, linkLocal: [IPv6Address]) -> [Action] {
        let old = configuration
        configuration.address = address
        configuration.subnet = subnet
        configuration.linkLocal = linkLocal
        var actions: [Action] = []
        for (source, announcer) in announcers.sorted(by: { $0.key < $1.key }) where endpoint(source, announcer) == nil {
            announcers[source] = nil
            if let endpoint = old.endpoint(source, port: announcer.port) { actions.append(.forget(endpoint)) }
        }
        return actions
    }

    /// Handles one datagram read from a group: `source` is its sender (nil when of another family
    /// than the group's), `ttl` the TTL or hop limit it arrived with when the kernel reported it,
    /// `isLinked` whether a link to an endpoint is up now.
    public mutating func receive(
        _ bytes: [UInt8], from source: AnnouncementSource?, ttl: Int?, now: Duration, isLinked: (UDPEndpoint) -> Bool
    ) -> [Action] {
        counters.announcementsReceived += 1
        guard let source, configuration.accepts(source, ttl: ttl) else {
            counters.announcementsRejected += 1
            return []
        }
        let announcement: LANAnnouncement
        do {
            announcement = try LANAnnouncement(decoding: bytes)
        } catch {
            counters.announcementsMalformed += 1
            return []
        }
        guard announcement.serviceUUID == configuration.announcement.serviceUUID else {
            counters.announcementsForeign += 1
            return []
        }
        guard announcement.instanceTag != configuration.announcement.instanceTag else {
            counters.announcementsRejected += 1
            return []
        }
        if let known = announcers[source] {
            guard now - known.lastHeard >= configuration.sourceInterval else {
                counters.announcementsLimited += 1
                return []
            }
            announcers[source]?.lastHeard = now
            announcers[source]?.tag = announcement.instanceTag
            switch known.state {
            case .heard, .heldOff, .waiting: announcers[source]?.port = announcement.port
            case .dialling, .linked: break
            }
        } else {
            // The same node at another address (the other family, or a new address): one dial per
            // node. A dialled or linked one keeps its address; an idle one gives way to the new.
            if let (other, entry) = announcers.first(where: { $0.value.tag == announcement.instanceTag }) {
                switch entry.state {
                case .dialling, .linked, .waiting:
                    counters.announcementsLimited += 1
                    return []
                case .heard, .heldOff:
                    announcers[other] = nil
                }
            }
            guard makeRoom() else {
                counters.announcementsLimited += 1
                return []
            }
            announcers[source] = Announcer(port: announcement.port, tag: announcement.instanceTag, lastHeard: now, state: .heard)
            // It may not have heard us yet: announce at once, but never twice within `sourceInterval`.
            let soonest = lastAnnouncement.map { $0 + configuration.sourceInterval } ?? now
            nextAnnouncement = min(nextAnnouncement, max(now, soonest))
        }
        return dialIfDue(source, now: now, isLinked: isLinked)
    }

    /// Runs the timers: the announcement when due, dials that timed out, links that went down,
    /// announcers waiting for room, silent announcers forgotten.
    public mutating func tick(now: Duration, isLinked: (UDPEndpoint) -> Bool) -> [Action] {
        var actions: [Action] = []
        if now >= nextAnnouncement, configuration.announceGroup != nil {
            actions.append(.announce(configuration.announcement.encoded()))
            counters.announcementsSent += 1
            lastAnnouncement = now
            nextAnnouncement = now + drawInterval()
        }
        for address in announcers.keys.sorted() {
            guard let announcer = announcers[address], let endpoint = endpoint(address, announcer) else { continue }
            switch announcer.state {
            case .dialling(let since):
                if isLinked(endpoint) {
                    announcers[address]?.state = .linked
                } else if now - since >= configuration.dialTimeout {
                    let until = now + configuration.failureHoldoff
                    announcers[address]?.state = .heldOff(until: until)
                    counters.discoveryFailures += 1
                    actions.append(.forget(endpoint))
                }
            case .linked:
                // The link went down: the lower tag dials it (again, when it was ours) until the
                // dial times out; the higher waits for that first.
                if !isLinked(endpoint) {
                    if dialsFirst(announcer.tag) {
                        announcers[address]?.state = .dialling(since: now)
                        counters.discoveryDials += 1
                        actions.append(.dial(endpoint))
                    } else {
                        let until = now + configuration.dialFallback
                        announcers[address]?.state = .waiting(until: until)
                    }
                }
            case .waiting(let until):
                if isLinked(endpoint) {
                    announcers[address]?.state = .linked
                } else if now >= until {
                    // It did not dial us (it cannot reach us, or has no room): we dial.
                    announcers[address]?.state = .dialling(since: now)
                    counters.discoveryDials += 1
                    actions.append(.dial(endpoint))
                }
            case .heard:
                if now - announcer.lastHeard >= configuration.staleAfter { announcers[address] = nil }
            case .heldOff(let until):
                if now >= until, now - announcer.lastHeard >= configuration.staleAfter { announcers[address] = nil }
            }
        }
        for address in announcers.keys.sorted() {
            guard let announcer = announcers[address] else { continue }
            switch announcer.state {
            case .heard, .heldOff: actions += dialIfDue(address, now: now, isLinked: isLinked)
            case .dialling, .linked, .waiting: break
            }
        }
        return actions
    }

    /// Dials a heard announcer (or one whose hold-off is over) when there is room, if our tag is the
    /// lower, else waits for it to dial us; marks one that already has a link (it dialled us) as linked.
    private mutating func dialIfDue(_ address: AnnouncementSource, now: Duration, isLinked: (UDPEndpoint) -> Bool) -> [Action] {
        guard let announcer = announcers[address], let endpoint = endpoint(address, announcer) else { return [] }
        switch announcer.state {
        case .heard: break
        case .heldOff(let until) where now >= until: break
        default: return []
        }
        if isLinked(endpoint) {
            guard neighbourCount < configuration.maxNeighbours else { return [] }
            announcers[address]?.state = .linked
            return []
        }
        guard neighbourCount < configuration.maxNeighbours else { return [] }
        guard dialsFirst(announcer.tag) else {
            let until = now + configuration.dialFallback
            announcers[address]?.state = .waiting(until: until)
            return []
        }
        announcers[address]?.state = .dialling(since: now)
        counters.discoveryDials += 1
        return [.dial(endpoint)]
    }

    /// Frees a slot for a new announcer when all are taken: the longest-silent one that is neither
    /// dialled nor linked goes. False when every slot holds a dialled or linked one.
    private mutating func makeRoom() -> Bool {
        guard announcers.count >= configuration.maxAnnouncers else { return true }
        let idle = announcers.filter {
            switch $0.value.state {
            case .heard, .heldOff: true
            case .dialling, .linked, .waiting: false
            }
        }
        guard let victim = idle.min(by: { ($0.value.lastHeard, $0.key) < ($1.value.lastHeard, $1.key) })?.key else { return false }
        announcers[victim] = nil
        return true
    }

    /// `announceInterval` ± `jitter` of it, uniformly.
    private mutating func drawInterval() -> Duration {
        let jitter = configuration.jitter
        guard jitter > 0 else { return configuration.announceInterval }
        let factor = Double.random(in: (1 - jitter)...(1 + jitter), using: &random)
        return configuration.announceInterval * factor
    }
}
