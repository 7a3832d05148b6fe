import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol

/// Two engines joined by one link, driven by hand so tests can lose or tamper with frames.
/// Frames travel in order (a FIFO per direction), as on a real link.
final class EnginePair {
    let a: MeshEngine
    let b: MeshEngine
    var now: Duration = .zero
    /// Messages delivered by either engine.
    var delivered: [DeliveredMessage] = []
    /// Envelopes either engine handed the MQTT bridge (`fromA` false: from B), in order.
    var uplinked: [(fromA: Bool, envelope: Envelope)] = []
    /// Frames from A to B pass through this before delivery.
    var tamper: ([UInt8]) -> [[UInt8]] = { [$0] }
    private var inFlight: [(toB: Bool, frame: [UInt8])] = []
    private var framesSent: [Bool: Int] = [:]
    private let lost: (toB: Bool, index: Int)?
    private let dropping: (_ toB: Bool, _ frame: [UInt8]) -> Bool

    /// Links the two engines; `losing` names one frame (direction and sequence number from
    /// link-up) that never arrives, and every frame `dropping` picks never arrives either.
    /// B runs with `configurationOfB` when one is given (a gateway beside a plain node).
    init(
        configuration: EngineConfiguration = EngineConfiguration(), configurationOfB: EngineConfiguration? = nil,
        losing lost: (toB: Bool, index: Int)? = nil,
        dropping: @escaping (_ toB: Bool, _ frame: [UInt8]) -> Bool = { _, _ in false }
    ) throws {
        self.lost = lost
        self.dropping = dropping
        a = MeshEngine(identity: try NodeIdentity.generate(), configuration: configuration, random: SplitMix64(seed: 1))
        b = MeshEngine(identity: try NodeIdentity.generate(), configuration: configurationOfB ?? configuration, random: SplitMix64(seed: 2))
        let fromA = a.handle(.linkUp(LinkInfo(id: LinkID(1), role: .central, remoteAddress: "b", mtu: 100)), now: now)
        let fromB = b.handle(.linkUp(LinkInfo(id: LinkID(2), role: .peripheral, remoteAddress: "a", mtu: 100)), now: now)
        queue(fromA, toB: true)
        queue(fromB, toB: false)
        drain()
    }

    private func queue(_ actions: [EngineAction], toB: Bool) {
        for action in actions {
            switch action {
            case .send(let frame, _):
                let index = framesSent[toB, default: 0]
                framesSent[toB] = index + 1
                if let lost, lost == (toB, index) { continue }
                if dropping(toB, frame) { continue }
                for copy in toB ? tamper(frame) : [frame] { inFlight.append((toB, copy)) }
            case .event(.delivered(let message)):
                delivered.append(message)
            case .uplink(let envelope):
                uplinked.append((toB, envelope))
            default:
                break
            }
        }
    }

    /// Performs actions A returned outside the pair's own traffic (a lookup it started), then drains.
    func performAtA(_ actions: [EngineAction]) {
        queue(actions, toB: true)
        drain()
    }

    /// Performs actions B returned outside the pair's own traffic (the bridge), then drains.
    func performAtB(_ actions: [EngineAction]) {
        queue(actions, toB: false)
        drain()
    }

    /// Delivers every frame in flight, and those they cause, in order.
    func drain() {
        while !inFlight.isEmpty {
            let (toB, frame) = inFlight.removeFirst()
            if toB {
                queue(b.handle(.frameReceived(LinkID(2), frame), now: now), toB: false)
            } else {
                queue(a.handle(.frameReceived(LinkID(1), frame), now: now), toB: true)
            }
        }
    }

    /// A broadcast from A, carried to the end.
    func send(_ text: String) throws {
        let (_, actions) = try a.send(text: text, now: now)
        queue(actions, toB: true)
        drain()
    }

    /// Moves the clock on and runs both engines' timers.
    func advance(_ duration: Duration) {
        now += duration
        queue(a.tick(now: now), toB: true)
        queue(b.tick(now: now), toB: false)
        drain()
    }

    /// True when each engine has the other as a ready neighbour.
    var bothReady: Bool {
        [a, b].allSatisfy { engine in engine.neighbourSnapshots().contains { $0.links.contains { $0.phase == .ready } } }
    }
}
