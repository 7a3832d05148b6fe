import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol
import Testing

/// Two engines on one slow BLE-like link: one frame in flight per direction, each taking
/// `perFrame` to cross (a Write Request and its response on a busy radio). Both ends come up at
/// the smallest frame size; when `mtuAt` is set, each end's MTU exchange raises the frame size to
/// 510 at that time. Time advances in 10 ms steps and both engines tick every 250 ms, as the
/// daemon does.
private final class SlowLinkPair {
    let a: MeshEngine
    let b: MeshEngine
    private(set) var now: Duration = .zero
    /// Frames each end handed its transport, by the frame kind byte (index 0: A, 1: B).
    private(set) var framesSent: [[UInt8: Int]] = [[:], [:]]
    private var queues: [[[UInt8]]] = [[], []]
    private var busyUntil: [Duration?] = [nil, nil]
    private let perFrame: Duration
    private let mtuAt: Duration?
    private var mtuRaised = false

    init(
        configuration: EngineConfiguration = EngineConfiguration(), mtuSettled: Bool, lossless: Bool = false,
        perFrame: Duration, mtuAt: Duration?
    ) throws {
        self.perFrame = perFrame
        self.mtuAt = mtuAt
        a = MeshEngine(identity: try NodeIdentity.generate(), configuration: configuration, random: SplitMix64(seed: 1))
        b = MeshEngine(identity: try NodeIdentity.generate(), configuration: configuration, random: SplitMix64(seed: 2))
        take(a.handle(.linkUp(LinkInfo(id: LinkID(1), role: .central, remoteAddress: "b", mtu: 20, mtuSettled: mtuSettled, lossless: lossless)), now: now), from: 0)
        take(b.handle(.linkUp(LinkInfo(id: LinkID(2), role: .peripheral, remoteAddress: "a", mtu: 20, mtuSettled: mtuSettled, lossless: lossless)), now: now), from: 1)
    }

    private func engine(_ side: Int) -> MeshEngine { side == 0 ? a : b }
    private func link(_ side: Int) -> LinkID { LinkID(UInt64(side + 1)) }

    /// Queues the frames an end sent; a frame with a kind byte is counted by it.
    func take(_ actions: [EngineAction], from side: Int) {
        for case .send(let frame, _) in actions {
            framesSent[side][frame.first ?? 0, default: 0] += 1
            queues[side].append(frame)
        }
    }

    /// Moves on by `duration` in 10 ms steps: frames arrive, the MTU changes, engines tick.
    func run(for duration: Duration, until done: () -> Bool = { false }) {
        let end = now + duration
        while now < end, !done() {
            now += .milliseconds(10)
            if let mtuAt, !mtuRaised, now >= mtuAt {
                mtuRaised = true
                for side in 0...1 { take(engine(side).handle(.mtuChanged(link(side), mtu: 510), now: now), from: side) }
            }
            for side in 0...1 {
                if let busy = busyUntil[side], busy <= now {
                    let frame = queues[side].removeFirst()
                    busyUntil[side] = nil
                    let other = 1 - side
                    take(engine(other).handle(.frameReceived(link(other), frame), now: now), from: other)
                }
                if busyUntil[side] == nil, !queues[side].isEmpty { busyUntil[side] = now + perFrame }
            }
            if now.components.attoseconds == 0 || now.components.attoseconds % 250_000_000_000_000_000 == 0 {
                for side in 0...1 { take(engine(side).tick(now: now), from: side) }
            }
        }
    }

    /// True when each engine has the other as a ready neighbour.
    var bothReady: Bool {
        [a, b].allSatisfy { engine in engine.neighbourSnapshots().contains { $0.links.contains { $0.phase == .ready } } }
    }

    /// Frames of key exchange openings and answers (private hellos, PROTOCOL.md D3b).
    func keyExchangeFrames(_ side: Int) -> Int { framesSent[side][PrivateHello.frameKind, default: 0] }
}

@Suite("A new link waits for its MTU exchange before it sends its key exchange")
struct MTUExchangeWaitTests {
    /// A 98-byte hello in 20-byte frames (11 bytes of it per frame).
    let helloFramesAt20Bytes = (PrivateHello.encodedLength + 10) / 11

    @Test("The opening waits for the MTU exchange, then goes in one frame")
    func openingWaitsForTheExchange() throws {
        let pair = try SlowLinkPair(mtuSettled: false, perFrame: .milliseconds(50), mtuAt: .milliseconds(300))
        pair.run(for: .milliseconds(290))
        #expect(pair.keyExchangeFrames(0) == 0)
        #expect(pair.keyExchangeFrames(1) == 0)
        pair.run(for: .seconds(5), until: { pair.bothReady })
        #expect(pair.bothReady)
        // One opening each way, crossed, one frame each at the raised MTU.
        #expect(pair.keyExchangeFrames(0) == 1)
        #expect(pair.keyExchangeFrames(1) == 1)
    }

    @Test("Without an MTU exchange the opening goes after the wait, split for 20-byte frames")
    func noExchange() throws {
        let pair = try SlowLinkPair(mtuSettled: false, perFrame: .milliseconds(20), mtuAt: nil)
        pair.run(for: .milliseconds(990))
        #expect(pair.keyExchangeFrames(0) == 0)
        pair.run(for: .seconds(8), until: { pair.bothReady })
        #expect(pair.bothReady)
        #expect(pair.keyExchangeFrames(0) == helloFramesAt20Bytes)
        #expect(pair.a.linkCounters.handshakeTimeouts == 0)
    }

    @Test("A settled link sends its opening at once")
    func settledLink() throws {
        let pair = try SlowLinkPair(mtuSettled: true, perFrame: .milliseconds(20), mtuAt: nil)
        #expect(pair.keyExchangeFrames(0) == helloFramesAt20Bytes)
        #expect(pair.keyExchangeFrames(1) == helloFramesAt20Bytes)
    }

    @Test("An opening from the peer during the wait is answered, and no opening follows")
    func peerOpeningIsAnswered() throws {
        let a = MeshEngine(identity: try NodeIdentity.generate(), random: SplitMix64(seed: 1))
        let b = MeshEngine(identity: try NodeIdentity.generate(), random: SplitMix64(seed: 2))
        let waiting = a.handle(.linkUp(LinkInfo(id: LinkID(1), role: .central, remoteAddress: "b", mtu: 20, mtuSettled: false)), now: .zero)
        #expect(waiting.allSatisfy { if case .send = $0 { false } else { true } })
        let opening = b.handle(.linkUp(LinkInfo(id: LinkID(2), role: .peripheral, remoteAddress: "a", mtu: 510)), now: .zero)
        var answer: [[UInt8]] = []
        for case .send(let frame, _) in opening {
            for case .send(let reply, _) in a.handle(.frameReceived(LinkID(1), frame), now: .milliseconds(100)) { answer.append(reply) }
        }
        #expect(answer.first?.first == PrivateHello.frameKind)
        for frame in answer {
            // B's identity proof goes back to A.
            for case .send(let proof, _) in b.handle(.frameReceived(LinkID(2), frame), now: .milliseconds(200))
            where proof.first == IdentityProof.frameKind {
                _ = a.handle(.frameReceived(LinkID(1), proof), now: .milliseconds(300))
            }
        }
        let later = a.tick(now: .seconds(2))
        let keyExchanges = later.filter { if case .send(let frame, _) = $0 { frame.first == PrivateHello.frameKind } else { false } }
        #expect(keyExchanges.isEmpty)
        #expect(a.linkCounters.keyExchanges == 1)
    }

    /// What a user feels: a link on a slow radio (250 ms a write) whose MTU exchange comes 150 ms
    /// after the connection is ready within 3 s, with one key exchange frame each way and no
    /// retry. Keying at once there (a link reported settled at 20 bytes) is not ready within the
    /// 10 s handshake timeout: each end's opening takes a score of writes, the 2 s retries add more,
    /// and the crossed openings never pair up before the link is closed.
    @Test("On a slow radio the link is ready within seconds")
    func slowRadio() throws {
        let pair = try SlowLinkPair(mtuSettled: false, perFrame: .milliseconds(250), mtuAt: .milliseconds(150))
        pair.run(for: .seconds(10), until: { pair.bothReady })
        #expect(pair.bothReady)
        #expect(pair.now <= .seconds(3))
        #expect(pair.keyExchangeFrames(0) == 1)
        #expect(pair.keyExchangeFrames(1) == 1)
        #expect(pair.a.linkCounters.handshakeRetries + pair.b.linkCounters.handshakeRetries == 0)
    }

    /// A lossless link (BLE) that never exchanges its MTU, 60 ms a write (a Write Request and its
    /// response at a 30 ms connection interval): each end's opening is 34 20-byte writes, about
    /// 2 s. No timed repeat queues behind it, and the two openings pair up when they arrive
    /// although both took longer than the 2 s guard: ready in about 6 s, one opening each way.
    /// The same link treated as lossy repeated its opening three times and was not ready when
    /// the 10 s handshake timeout closed it.
    @Test("On a slow lossless link the crossed openings pair up without repeats")
    func slowLosslessLink() throws {
        let pair = try SlowLinkPair(mtuSettled: false, lossless: true, perFrame: .milliseconds(60), mtuAt: nil)
        pair.run(for: .seconds(10), until: { pair.bothReady })
        #expect(pair.bothReady)
        #expect(pair.a.linkCounters.handshakeTimeouts + pair.b.linkCounters.handshakeTimeouts == 0)
        #expect(pair.a.linkCounters.keyExchanges == 1)
        #expect(pair.b.linkCounters.keyExchanges == 1)
        // One opening each, in 20-byte frames (how many depends on the signature's length).
        #expect(pair.now <= .seconds(8))
        #expect(pair.keyExchangeFrames(0) <= 40)
        #expect(pair.keyExchangeFrames(1) <= 40)
    }
}
