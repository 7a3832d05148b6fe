import Dispatch
import Glibc
import MeshLink
import MeshProtocol
import Synchronization

/// A `MeshTransport` over loopback UDP that carries exactly the frames a GATT link would.
///
/// It binds one port; for every configured neighbour it is the central of a link and retries
/// connecting every `connectInterval`; any node that connects to it gets a peripheral link.
/// Two nodes that list each other have two links, one per role, as BLE dual role does.
/// On a LAN interface with discovery it also announces itself to a link-local multicast group
/// (IPv6, else IPv4) and dials the announcers it hears on either (``LANDiscovery``,
/// docs/PROTOCOL.md Part I); it follows the interface's addresses as they change (``follow(_:)``).
/// The datagram protocol is in docs/OPERATIONS.md. Socket I/O never blocks (a reader thread
/// waits in `poll` and reads on the queue); events are delivered one at a time, in order, on the
/// transport's own serial queue.
public final class UDPTransport: MeshTransport, InterfaceFollowing, Sendable {
    private struct State {
        var table: UDPLinkTable
        var discovery: LANDiscovery?
        var sources: UDPSources
        var groupReaders: [SocketReader] = []
        var handler: (@Sendable (TransportEvent) -> Void)?
        var reader: SocketReader?
        var timer: DispatchSourceTimer?
        var started = false
        var stopped = false
    }

    /// The configuration the transport runs with.
    public let configuration: UDPTransportConfiguration
    /// The address actually bound (the kernel's choice when the configuration said port 0).
    public let boundEndpoint: UDPEndpoint
    private let socket: UDPSocket
    /// The discovery groups' sockets (IPv4, IPv6: each where it could be joined), with discovery.
    private let groupSockets: [GroupSocket]
    /// Why discovery was configured but could not start (no multicast on the interface, ...).
    public let discoveryFailure: String?
    private let state: Mutex<State>
    private let queue: DispatchQueue
    private let origin = ContinuousClock.now

    /// Binds the socket now, so `boundEndpoint` is known before `start`.
    ///
    /// `randomSeed` fixes link nonces and frame-loss draws for tests; nil (the daemon) draws them
    /// from the system's secure random source.
    public init(configuration: UDPTransportConfiguration, randomSeed: UInt64? = nil) throws(UDPTransportError) {
        self.configuration = configuration
        socket = try UDPSocket.bind(configuration.bind, device: configuration.device)
        do {
            boundEndpoint = configuration.device == nil ? try socket.localEndpoint() : configuration.bind.with(port: try socket.localPort())
        } catch {
            socket.close()
            throw error
        }
        // Links do not need multicast: without it the transport runs on its static peers and says why.
        let (groups, failure) = Self.openDiscovery(configuration, socket: socket)
        groupSockets = groups
        discoveryFailure = failure
        let table = randomSeed.map { UDPLinkTable(configuration: configuration, seed: $0) } ?? UDPLinkTable(configuration: configuration)
        let discovery = groups.isEmpty ? nil : configuration.discovery.map { discovery in
            var discovery = discovery
            discovery.ipv6Group = groups.contains { $0.ipv6 }
            return randomSeed.map { LANDiscovery(configuration: discovery, random: SplitMix64(seed: $0 ^ 0x4C41_4E44)) }
                ?? LANDiscovery(configuration: discovery)
        }
        let sources = UDPSources(subnet: configuration.sources, linkLocalScope: configuration.linkLocalScope)
        state = Mutex(State(table: table, discovery: discovery, sources: sources))
        queue = DispatchQueue(label: "meshnode.udp.\(boundEndpoint.port)")
    }

    deinit {
        state.withLock { state in
            if !state.started {
                socket.close()
                for group in groupSockets { group.close() }
            }
            state.reader?.stop()
            for reader in state.groupReaders { reader.stop() }
            state.timer?.cancel()
        }
    }

    /// Starts reading, keepalives and connects; `handler` runs on the transport's queue.
    public func start(handler: @escaping @Sendable (TransportEvent) -> Void) throws {
        try state.withLock { state throws(UDPTransportError) in
            guard !state.started, !state.stopped else { throw .alreadyStarted }
            state.started = true
            state.handler = handler
            let reader = try SocketReader(
                fd: socket.fd, queue: queue, onReadable: { [weak self] in self?.drainSocket() },
                onExit: { [socket] in socket.close() })
            for groupSocket in groupSockets {
                state.groupReaders.append(try SocketReader(
                    fd: groupSocket.fd, queue: queue, onReadable: { [weak self] in self?.drainGroup(groupSocket) },
                    onExit: { groupSocket.close() }))
            }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let interval = configuration.tickInterval
            timer.schedule(deadline: .now(), repeating: .nanoseconds(Int(interval / .nanoseconds(1))), leeway: .milliseconds(1))
            timer.setEventHandler { [weak self] in self?.tick() }
            state.reader = reader
            state.timer = timer
            timer.resume()
        }
    }

    /// Sends one frame: `.sent` (also when test loss dropped it), `.full` or `.gone`.
    ///
    /// A frame longer than the link MTU is a caller bug: the link is closed and `.gone` returned.
    public func send(_ frame: [UInt8], on link: LinkID) -> SendOutcome {
        let plan = state.withLock { $0.stopped ? .gone : $0.table.planSend(frame, on: link, now: now()) }
        switch plan {
        case .gone:
            return .gone
        case .lost:
            return .sent
        case .tooLong(let mtu):
            close(link, reason: "frame of \(frame.count) bytes exceeds MTU \(mtu)")
            return .gone
        case .send(let datagram, let endpoint):
            let result = socket.send(datagram.encoded(), to: endpoint)
            state.withLock { state in
                switch result {
                case .sent:
                    state.table.counters.framesSent += 1
                    state.table.counters.datagramsSent += 1
                case .full: state.table.counters.sendFull += 1
                case .failed: state.table.counters.sendErrors += 1
                }
            }
            return result == .sent ? .sent : .full
        }
    }

    /// Closes a link; its `.linkDown` follows on the transport's queue.
    public func disconnect(_ link: LinkID) {
        close(link, reason: "disconnected locally")
    }

    /// Remembers that the engine keyed `link`: a full slot table displaces unkeyed links first.
    public func linkKeyed(_ link: LinkID) {
        queue.async { [self] in state.withLock { $0.table.markKeyed(link, now: now()) } }
    }

    /// Tells every peer its links are closed and stops; no new event starts after this returns.
    ///
    /// The socket stays open for `stopLinger` more, answering "gone" to the challenges the
    /// closes cause, so peers drop their links at once rather than at their link timeout.
    public func stop() {
        let lingering = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            state.handler = nil
            for (datagram, endpoint) in state.table.closeAll() { _ = socket.send(datagram.encoded(), to: endpoint) }
            state.timer?.cancel()
            state.timer = nil
            for reader in state.groupReaders { reader.stop() }
            state.groupReaders = []
            return state.reader != nil
        }
        guard lingering else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(Self.stopLingerMilliseconds)) { [self] in
            state.withLock { state in
                state.reader?.stop()
                state.reader = nil
            }
        }
    }

    /// How long a stopped transport still answers challenges, in milliseconds.
    static let stopLingerMilliseconds = 500

    /// The counters so far.
    public func counters() -> UDPTransportCounters { state.withLock { $0.table.counters } }

    /// The counters for `stats` (with discovery's); the summary says why discovery is not running
    /// when it was configured and could not start.
    public var status: TransportStatus {
        let (counters, discovery) = state.withLock { ($0.table.counters, $0.discovery?.counters) }
        var all = CounterDictionary.make(from: counters)
        if let discovery { all.merge(CounterDictionary.make(from: discovery)) { first, _ in first } }
        return TransportStatus(counters: all, summary: discoveryFailure.map { "no discovery: \($0)" })
    }

    /// The links up now, by ID.
    public func links() -> [LinkInfo] {
        state.withLock { state in state.table.links.values.sorted { $0.id < $1.id }.map { state.table.info($0) } }
    }

    private func now() -> Duration { ContinuousClock.now - origin }

    private func close(_ link: LinkID, reason: String) {
        queue.async { [self] in
            let actions = state.withLock { state in
                state.stopped ? [] : state.table.removeLink(link, reason: reason, notifyPeer: true, now: now())
            }
            perform(actions)
        }
    }

    private func tick() {
        let (actions, announcements, group) = state.withLock { state -> ([UDPLinkTable.Action], [[UInt8]], AnnouncementSource?) in
            guard !state.stopped else { return ([], [], nil) }
            let now = now()
            var announcements: [[UInt8]] = []
            if var discovery = state.discovery {
                announcements = Self.apply(discovery.tick(now: now, isLinked: state.table.isLinked), to: &state.table, now: now)
                state.discovery = discovery
            }
            return (state.table.tick(now: now), announcements, state.discovery?.configuration.announceGroup)
        }
        if let group { announce(announcements, to: group) }
        perform(actions)
    }

    /// Takes the interface's addresses now: reads datagrams from its subnet (and its link-local
    /// sources), and discovery takes them as its own and announces on the family they allow.
    public func follow(_ address: InterfaceAddress) {
        queue.async { [self] in
            state.withLock { state in
                guard !state.stopped else { return }
                state.sources.subnet = address.subnet
                guard var discovery = state.discovery else { return }
                let forgets = discovery.follow(address: address.address, subnet: address.subnet, linkLocal: address.linkLocal)
                state.discovery = discovery
                _ = Self.apply(forgets, to: &state.table, now: now())
            }
        }
    }

    /// Carries out discovery's dials and forgets on the link table; returns the announcements to send.
    private static func apply(_ actions: [LANDiscovery.Action], to table: inout UDPLinkTable, now: Duration) -> [[UInt8]] {
        var announcements: [[UInt8]] = []
        for action in actions {
            switch action {
            case .announce(let bytes): announcements.append(bytes)
            case .dial(let endpoint): table.addDiscovered(endpoint, now: now)
            case .forget(let endpoint): table.forgetDiscovered(endpoint)
            }
        }
        return announcements
    }

    /// Sends announcements to a discovery group.
    private func announce(_ announcements: [[UInt8]], to group: AnnouncementSource) {
        for bytes in announcements {
            let result = socket.send(bytes, toGroup: group, port: LANDiscoveryConfiguration.groupPort)
            state.withLock { state in
                switch result {
                case .sent: state.table.counters.datagramsSent += 1
                case .full: state.table.counters.sendFull += 1
                case .failed: state.table.counters.sendErrors += 1
                }
            }
        }
    }

    /// Reads up to `readBatch` announcements from a group socket, until it is empty; a dial
    /// connects at once.
    private func drainGroup(_ groupSocket: GroupSocket) {
        for _ in 0..<Self.readBatch {
            switch groupSocket.receive(capacity: LANAnnouncement.length + 1) {
            case .empty, .failed:
                return
            case .datagram(let bytes, _, let source, let ttl):
                let actions = state.withLock { state -> [UDPLinkTable.Action] in
                    guard !state.stopped, var discovery = state.discovery else { return [] }
                    let now = now()
                    // A longer datagram arrives cut to 24 bytes, which the exact-length check refuses.
                    let dials = discovery.receive(bytes, from: source, ttl: ttl, now: now, isLinked: state.table.isLinked)
                    state.discovery = discovery
                    guard !dials.isEmpty else { return [] }
                    _ = Self.apply(dials, to: &state.table, now: now)
                    return state.table.tick(now: now)
                }
                perform(actions)
            }
        }
    }

    /// Opens the discovery groups' sockets and readies `socket` to announce, with discovery: the
    /// IPv4 group, and the IPv6 one where the link socket is IPv6 and the interface has IPv6 on.
    /// Nil when neither opened, with why.
    private static func openDiscovery(_ configuration: UDPTransportConfiguration, socket: UDPSocket) -> ([GroupSocket], String?) {
        guard configuration.discovery != nil, let device = configuration.device else { return ([], nil) }
        let index = Int32(bitPattern: if_nametoindex(device))
        guard index > 0 else { return ([], "\(UDPTransportError.system(call: "if_nametoindex \(device)", errno: errno))") }
        var groups: [GroupSocket] = []
        var failures: [String] = []
        do throws(UDPTransportError) {
            try socket.enableMulticastSend(interfaceIndex: index)
            groups.append(try GroupSocket.open(
                group: LANDiscoveryConfiguration.group, port: LANDiscoveryConfiguration.groupPort, device: device, interfaceIndex: index))
        } catch {
            failures.append("\(error)")
        }
        if socket.dualStack {
            do throws(UDPTransportError) {
                try socket.enableMulticastSend6(interfaceIndex: index, hopLimit: Int32(LANDiscoveryConfiguration.hopLimitV6))
                groups.append(try GroupSocket.open(
                    group: LANDiscoveryConfiguration.groupV6, port: LANDiscoveryConfiguration.groupPort, device: device, interfaceIndex: index))
            } catch {
                failures.append("\(error)")
            }
        } else {
            failures.append("no IPv6 in the kernel")
        }
        return (groups, groups.isEmpty ? failures.joined(separator: "; ") : nil)
    }

    /// Reads up to `readBatch` datagrams, until the socket is empty.
    private func drainSocket() {
        let sources = state.withLock { $0.sources }
        for _ in 0..<Self.readBatch {
            switch socket.receive(capacity: UDPDatagram.maxLength + 1, sources: sources) {
            case .empty, .failed:
                return
            case .datagram(let bytes, let length, let source):
                let actions = state.withLock { state -> [UDPLinkTable.Action] in
                    if state.stopped, let source, let answer = state.table.answerAfterStop(bytes, from: source) {
                        return [.send(answer, to: source)]
                    }
                    guard !state.stopped else { return [] }
                    guard let source else {
                        state.table.counters.rejectedSource += 1
                        return []
                    }
                    guard length <= UDPDatagram.maxLength else {
                        state.table.counters.datagramsReceived += 1
                        state.table.counters.oversizedDatagrams += 1
                        return []
                    }
                    return state.table.receive(bytes, from: source, now: now())
                }
                perform(actions)
            }
        }
    }

    /// Datagrams read per wake-up of the reader thread at most, before it hands the queue on.
    static let readBatch = 64

    /// Sends datagrams and delivers events in order; runs on `queue`.
    private func perform(_ actions: [UDPLinkTable.Action]) {
        guard !actions.isEmpty else { return }
        var sent: UInt64 = 0
        var full: UInt64 = 0
        var failed: UInt64 = 0
        for action in actions {
            switch action {
            case .send(let datagram, let endpoint):
                switch socket.send(datagram.encoded(), to: endpoint) {
                case .sent: sent += 1
                case .full: full += 1
                case .failed: failed += 1
                }
            case .emit(let event):
                state.withLock { $0.handler }?(event)
            }
        }
        state.withLock { state in
            state.table.counters.datagramsSent += sent
            state.table.counters.sendFull += full
            state.table.counters.sendErrors += failed
        }
    }
}
