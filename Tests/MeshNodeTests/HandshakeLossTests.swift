import MeshCrypto
import MeshNode
import MeshProtocol
import Testing

/// Two engines on one in-order link where one chosen frame of the handshake is lost.
private final class LossyHandshake {
    let a: MeshEngine
    let b: MeshEngine
    private(set) var now: Duration = .zero
    private(set) var deliveredAtB: [String] = []
    private var inFlight: [(toB: Bool, frame: [UInt8])] = []
    private var framesSent: [Bool: Int] = [true: 0, false: 0]
    private let lost: (toB: Bool, index: Int)

    init(losing lost: (toB: Bool, index: Int)) throws {
        self.lost = lost
        a = MeshEngine(identity: try NodeIdentity.generate(), random: SplitMix64(seed: 11))
        b = MeshEngine(identity: try NodeIdentity.generate(), random: SplitMix64(seed: 12))
        queue(a.handle(.linkUp(LinkInfo(id: LinkID(1), role: .central, remoteAddress: "b", mtu: 100)), now: now), toB: true)
        queue(b.handle(.linkUp(LinkInfo(id: LinkID(2), role: .peripheral, remoteAddress: "a", mtu: 100)), now: now), toB: false)
        drain()
    }

    private func queue(_ actions: [EngineAction], toB: Bool) {
        for action in actions {
            switch action {
            case .send(let frame, _):
                let index = framesSent[toB, default: 0]
                framesSent[toB] = index + 1
                if (toB, index) != lost { inFlight.append((toB, frame)) }
            case .event(.delivered(let message)) where !toB:
                deliveredAtB.append(message.text)
            default:
                break
            }
        }
    }

    private func drain() {
        while !inFlight.isEmpty {
            let (toB, frame) = inFlight.removeFirst()
            if toB {
                queue(b.handle(.frameReceived(LinkID(2), frame), now: now), toB: false)
            } else {
                queue(a.handle(.frameReceived(LinkID(1), frame), now: now), toB: true)
            }
        }
    }

    func advance(_ duration: Duration) {
        now += duration
        queue(a.tick(now: now), toB: true)
        queue(b.tick(now: now), toB: false)
        drain()
    }

    func send(_ text: String) throws {
        queue(try a.send(text: text, now: now).1, toB: true)
        drain()
    }

    var bothReady: Bool {
        [a, b].allSatisfy { engine in engine.neighbourSnapshots().contains { $0.links.contains { $0.phase == .ready } } }
    }
}

@Suite("Handshake under frame loss")
struct HandshakeLossTests {
    /// Every frame of the handshake (key exchanges, profiles, and the first heartbeats) is
    /// lost once, in each direction: the link must still become ready well inside the
    /// 10 s handshake timeout, by the retry after the 2 s guard interval.
    @Test("One lost handshake frame costs a retry, not the link",
          arguments: [true, false], 0..<10)
    func oneLostFrame(toB: Bool, index: Int) throws {
        let pair = try LossyHandshake(losing: (toB, index))
        for _ in 0..<24 where !pair.bothReady { pair.advance(.milliseconds(250)) }
        #expect(pair.bothReady)
        #expect(pair.a.linkCounters.handshakeTimeouts == 0)
        #expect(pair.b.linkCounters.handshakeTimeouts == 0)
        try pair.send("after the loss")
        #expect(pair.deliveredAtB == ["after the loss"])
    }

    @Test("A clean handshake needs no retry")
    func cleanHandshake() throws {
        let pair = try LossyHandshake(losing: (true, Int.max))
        #expect(pair.bothReady)
        for _ in 0..<40 { pair.advance(.milliseconds(250)) }
        #expect(pair.a.linkCounters.handshakeRetries == 0)
        #expect(pair.b.linkCounters.handshakeRetries == 0)
    }
}
