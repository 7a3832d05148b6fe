import MeshCrypto
import MeshNode
import MeshProtocol
import MeshSim
import Testing

/// Opaque link packets (PROTOCOL.md D14) between nodes of this version, and beside a node that
/// sends only today's form, as a passive listener on the air sees them.
@Suite("Opaque link packets in a mesh, and beside an older node")
struct OpaqueLinkPacketMeshTests {
    /// Every frame on the air, by sender, in order.
    final class Listener {
        var frames: [(sender: Int, frame: [UInt8])] = []

        /// The frames sent since `start`.
        func frames(since start: Int) -> [(sender: Int, frame: [UInt8])] { Array(frames[start...]) }

        /// Whether any frame holds `bytes` anywhere.
        func anyFrameContains(_ bytes: [UInt8], since start: Int) -> Bool {
            frames(since: start).contains { entry in
                entry.frame.count >= bytes.count
                    && (0...(entry.frame.count - bytes.count)).contains { Array(entry.frame[$0..<$0 + bytes.count]) == bytes }
            }
        }

        /// The length of every whole message (Part B) each sender put on the air since `start`.
        func messageLengths(since start: Int) -> [(kind: UInt8, length: Int)] {
            var lengths: [[UInt8]: (kind: UInt8, length: Int)] = [:]
            var order: [[UInt8]] = []
            for (sender, frame) in frames(since: start) {
                let key = [UInt8(sender)] + Array(frame[1..<5])
                if lengths[key] == nil { order.append(key) }
                lengths[key, default: (frame[0], 0)].length += frame.count - 9
            }
            return order.map { lengths[$0]! }
        }
    }

    static func olderNode() -> EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.opaquePackets = false
        return configuration
    }

    static func listening(_ sim: MeshSimulator) -> Listener {
        let listener = Listener()
        sim.listener = { listener.frames.append(($0, $1)) }
        return listener
    }

    /// Opaque packet lengths below 4,096 + 28 bytes: a D7 bucket with nonce and tag around it.
    static let bucketSizes: Set<Int> = [60, 92, 156, 284, 540, 1052, 2076, 4124]

    @Test("Between nodes of this version every packet after keying is opaque: no kind, no message ID, bucket sizes")
    func allOpaque() throws {
        let sim = try MeshSimulator(nodeCount: 3, seed: 51)
        let listener = Self.listening(sim)
        _ = sim.line([0, 1, 2])
        sim.run(for: .seconds(5))
        #expect(sim.readyNeighbourCount(1) == 2)
        let start = listener.frames.count
        let broadcast = try sim.send(from: 0, text: "nothing in clear")
        let direct = try sim.send(from: 2, text: "for A alone", to: 0)
        sim.run(for: .seconds(25))
        #expect(sim.deliveries(of: broadcast) == [1: 1, 2: 1])
        #expect(sim.deliveries(of: direct) == [0: 1])
        // Messages, heartbeats and acknowledgements all went opaque, each a padding bucket long.
        let messages = listener.messageLengths(since: start)
        #expect(messages.count > 6)
        for message in messages {
            #expect(message.kind == LinkSession.opaqueFrameKind)
            #expect(Self.bucketSizes.contains(message.length) || (message.length - 28) % 4096 == 0, "a packet of \(message.length) bytes")
        }
        #expect(!listener.anyFrameContains(broadcast.bytes, since: 0))
        #expect(!listener.anyFrameContains(direct.bytes, since: 0))
        for (index, node) in sim.nodes.enumerated() {
            #expect(node.engine.linkCounters.opaqueLinks == (index == 1 ? 2 : 1))
            #expect(node.engine.linkCounters.unknownKinds == 0)
            #expect(node.engine.linkCounters.sealFailures == 0)
            // Acknowledgements flowed in the opaque form too (D12 over D14).
            #expect(node.engine.linkCounters.acknowledged >= 1 || index == 1)
        }
    }

    @Test("An older node in the middle is sent today's form both ways, and everything still arrives")
    func olderNodeInTheMiddle() throws {
        let sim = try MeshSimulator(nodeCount: 3, seed: 52, nodeConfigurations: [1: Self.olderNode()])
        let listener = Self.listening(sim)
        _ = sim.line([0, 1, 2])
        sim.run(for: .seconds(5))
        #expect(sim.readyNeighbourCount(1) == 2)
        let start = listener.frames.count
        let broadcast = try sim.send(from: 0, text: "across an older node")
        sim.run(for: .seconds(2))
        let direct = try sim.send(from: 2, text: "sealed for A", to: 0)
        sim.run(for: .seconds(2))
        #expect(sim.deliveries(of: broadcast) == [1: 1, 2: 1])
        #expect(sim.deliveries(of: direct) == [0: 1])
        // Toward the older node nothing but the announcements is opaque, so its message IDs show.
        #expect(!listener.frames(since: start).contains { $0.frame[0] == LinkSession.opaqueFrameKind })
        #expect(listener.anyFrameContains(broadcast.bytes, since: start))
        for index in [0, 2] {
            #expect(sim.nodes[index].engine.linkCounters.opaqueLinks == 0)
            #expect(sim.nodes[index].engine.linkCounters.acknowledged >= 1)
        }
        // The older node dropped each announcement as a frame of a kind it does not know, and
        // kept its links.
        #expect(sim.nodes[1].engine.linkCounters.unknownKinds == 2)
        #expect(sim.nodes[1].engine.linkCounters.sealFailures == 0)
    }

    @Test("A line of new, new, older: the new pair speaks opaque, the mixed pair today's form")
    func mixedLine() throws {
        let sim = try MeshSimulator(nodeCount: 3, seed: 53, nodeConfigurations: [2: Self.olderNode()])
        let listener = Self.listening(sim)
        _ = sim.line([0, 1, 2])
        sim.run(for: .seconds(5))
        let start = listener.frames.count
        let broadcast = try sim.send(from: 0, text: "opaque, then not")
        sim.run(for: .seconds(2))
        #expect(sim.deliveries(of: broadcast) == [1: 1, 2: 1])
        #expect(sim.nodes[0].engine.linkCounters.opaqueLinks == 1)
        #expect(sim.nodes[1].engine.linkCounters.opaqueLinks == 1)
        // Node 0 sent it opaque; node 1 relayed it to the older node in today's form.
        let fromZero = listener.frames(since: start).filter { $0.sender == 0 }
        #expect(!fromZero.isEmpty && fromZero.allSatisfy { $0.frame[0] == LinkSession.opaqueFrameKind })
        #expect(listener.frames(since: start).contains { $0.sender == 1 && $0.frame[0] == MessageKind.message.rawValue })
    }

    /// Switches a pair's loss of opaque frames on and off.
    final class LossSwitch {
        var on = true
    }

    @Test("Both announcements lost: today's form until a re-key announces again, then opaque")
    func lostAnnouncements() throws {
        var configuration = EngineConfiguration()
        configuration.rekeyInterval = .seconds(20)
        let losing = LossSwitch()
        let pair = try EnginePair(
            configuration: configuration, dropping: { _, frame in losing.on && frame.first == LinkSession.opaqueFrameKind })
        for _ in 0..<8 { pair.advance(.milliseconds(250)) }
        #expect(pair.bothReady)
        #expect(pair.a.linkCounters.opaqueLinks == 0 && pair.b.linkCounters.opaqueLinks == 0)
        losing.on = false
        try pair.send("before the re-key")
        for _ in 0..<100 { pair.advance(.milliseconds(250)) }
        #expect(pair.a.linkCounters.rekeys + pair.b.linkCounters.rekeys >= 1)
        #expect(pair.a.linkCounters.opaqueLinks == 1 && pair.b.linkCounters.opaqueLinks == 1)
        try pair.send("after the re-key")
        #expect(pair.delivered.map(\.text) == ["before the re-key", "after the re-key"])
        #expect(pair.a.linkCounters.sealFailures == 0 && pair.b.linkCounters.sealFailures == 0)
    }
}
