import Fragmenter
import Glibc
import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol

/// The line of Benchmarks/scripts/daemon-cpu.sh in one process: engines M, A, B and C, with M, A and C
/// each the central of one link to B (as meshflood and `--neighbours` make them over loopback
/// UDP). Frames go from engine to engine at once, in order; only B's engine calls are timed,
/// in this thread's CPU time, so the figure is the engine's share of what meshnoded B spends.
final class EngineLine {
    /// The node indices.
    static let m = 0, a = 1, b = 2, c = 3

    /// The four engines, by index.
    let engines: [MeshEngine]
    /// CPU time spent inside B's engine calls (`handle` and `tick`).
    private(set) var bEngineCPU: Duration = .zero
    /// B's engine calls timed.
    private(set) var bCalls = 0
    /// Neighbours B has seen join.
    private(set) var bNeighboursJoined = 0
    /// True over the flood: B's calls then go through ``measuredCallOfB(_:)``.
    var measuring = false

    private let mtu: Int
    private var now: Duration = .zero
    private var nextTick: Duration = .zero
    private let tickInterval: Duration
    private var nextLink: UInt64 = 1
    private var peers: [Int: [LinkID: (node: Int, link: LinkID)]] = [:]
    private var pending: [(node: Int, event: TransportEvent)] = []

    /// Creates the engines; `wallClockAtZero` is shared, as the daemons share the wall clock.
    init(
        configuration: EngineConfiguration, fragmenterLimits: FragmenterLimits, mtu: Int, tickInterval: Duration,
        wallClockAtZero: UInt64
    ) throws {
        var engines: [MeshEngine] = []
        for name in ["M", "A", "B", "C"] {
            var config = configuration
            config.displayName = name
            engines.append(MeshEngine(
                identity: try NodeIdentity.generate(), configuration: config, fragmenterLimits: fragmenterLimits,
                wallClockAtZero: wallClockAtZero))
        }
        self.engines = engines
        self.mtu = mtu
        self.tickInterval = tickInterval
    }

    /// Links M, A and C to B and runs until B has all three as neighbours (at most `limit`).
    func connect(within limit: Duration) -> Bool {
        for central in [Self.m, Self.a, Self.c] { link(central: central, peripheral: Self.b) }
        while now < limit, bNeighboursJoined < 3 { advance(to: now + .milliseconds(10)) }
        return bNeighboursJoined == 3
    }

    /// Moves virtual time to `time`, ticking every engine on the way, and handles all frames.
    func advance(to time: Duration) {
        while nextTick <= time {
            now = nextTick
            for node in engines.indices { perform(call(node) { $0.tick(now: self.now) }, from: node) }
            drain()
            nextTick += tickInterval
        }
        now = time
        drain()
    }

    /// M originates one broadcast now; B receives, checks, delivers and relays it.
    func broadcastFromM(text: String) throws {
        let (_, actions) = try engines[Self.m].send(text: text, now: now)
        perform(actions, from: Self.m)
        drain()
    }

    private func link(central: Int, peripheral: Int) {
        let centralLink = LinkID(nextLink)
        let peripheralLink = LinkID(nextLink + 1)
        nextLink += 2
        peers[central, default: [:]][centralLink] = (peripheral, peripheralLink)
        peers[peripheral, default: [:]][peripheralLink] = (central, centralLink)
        pending.append((central, .linkUp(LinkInfo(id: centralLink, role: .central, remoteAddress: "line:\(peripheral)", mtu: mtu))))
        pending.append((peripheral, .linkUp(LinkInfo(id: peripheralLink, role: .peripheral, remoteAddress: "line:\(central)", mtu: mtu))))
        drain()
    }

    private func drain() {
        var index = 0
        while index < pending.count {
            let (node, event) = pending[index]
            index += 1
            perform(call(node) { $0.handle(event, now: self.now) }, from: node)
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Runs one engine call; B's are timed.
    private func call(_ node: Int, _ body: (MeshEngine) -> [EngineAction]) -> [EngineAction] {
        guard node == Self.b else { return body(engines[node]) }
        let start = Self.threadCPUTime()
        let actions = measuring ? measuredCallOfB(body) : body(engines[node])
        bEngineCPU += Self.threadCPUTime() - start
        bCalls += 1
        return actions
    }

    /// B's engine calls while ``measuring``, and nothing else: never inlined, so that
    /// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measuredCallOfB*'`
    /// counts the instructions of B's engine alone over the flood (Benchmarks/scripts/daemon-cpu.sh
    /// --instructions).
    @inline(never)
    private func measuredCallOfB(_ body: (MeshEngine) -> [EngineAction]) -> [EngineAction] {
        body(engines[Self.b])
    }

    private func perform(_ actions: [EngineAction], from node: Int) {
        for action in actions {
            switch action {
            case .send(let frame, let link):
                if let peer = peers[node]?[link] { pending.append((peer.node, .frameReceived(peer.link, frame))) }
            case .disconnect(let link):
                if let peer = peers[node]?.removeValue(forKey: link) {
                    peers[peer.node]?[peer.link] = nil
                    pending.append((peer.node, .linkDown(peer.link, reason: "closed by peer")))
                }
            case .event(let event):
                if node == Self.b, case .neighbourJoined = event { bNeighboursJoined += 1 }
            case .uplink:
                break  // no engine here is a bridge gateway
            case .deposit, .rememberDelivery, .preferLink:
                break  // no engine here keeps mail, and the line has no slot table
            }
        }
    }

    /// This thread's CPU time (user and system), as /proc counts a process's.
    static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
