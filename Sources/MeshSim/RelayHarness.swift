import MeshCrypto
import MeshLink
import MeshNode
import MeshProtocol

/// One engine under test keyed to a source neighbour and `k` target neighbours, all real
/// `MeshEngine`s joined by in-memory links (as Tests/MeshNodeTests/EnginePair.swift does).
///
/// The engine's link 0 goes to the source; links 1...k go to the targets. Each neighbour's
/// only link (ID 0) goes to the engine. Setup runs the key exchanges and profile exchanges to
/// the end; afterwards the targets receive nothing (what the engine relays is counted and
/// dropped), so only the engine under test does work in a measured loop (meshbench's relay
/// path, AllocationTests' thresholds). The neighbours run without the link acknowledgement
/// (PROTOCOL.md D12, as older nodes): they answer nothing in the measured loop, so a peer's
/// credit would stop the engine after 32 messages.
public final class RelayHarness {
    /// The engine under test.
    public let engine: MeshEngine
    /// The neighbour whose broadcasts the engine relays.
    public let source: MeshEngine
    /// The neighbours the engine relays to.
    public let targets: [MeshEngine]
    /// The frame size of every link: the ATT MTU less its 3-byte header.
    public let frameSize: Int
    /// The time handed to every engine call; the caller moves it.
    public var now: Duration = .seconds(1)

    /// Why setup failed.
    public enum SetupError: Error {
        /// The engine did not end with every neighbour ready.
        case notReady(Int)
    }

    /// Keys the engine to a source and `targetCount` targets over links of `attMTU`, every engine
    /// with `configuration`; throws when a neighbour does not end ready.
    public init(attMTU: Int, targetCount: Int, configuration: EngineConfiguration) throws {
        frameSize = min(attMTU - 3, LinkInfo.frameSizes.upperBound)
        engine = MeshEngine(identity: try NodeIdentity.generate(), configuration: configuration, random: SplitMix64(seed: 1))
        var neighbourConfiguration = configuration
        neighbourConfiguration.linkDelivery.acknowledges = false
        source = MeshEngine(identity: try NodeIdentity.generate(), configuration: neighbourConfiguration, random: SplitMix64(seed: 2))
        targets = try (0..<targetCount).map { index in
            MeshEngine(
                identity: try NodeIdentity.generate(), configuration: neighbourConfiguration, random: SplitMix64(seed: UInt64(index + 3)))
        }
        var queue: [(toEngine: Bool, neighbour: Int, frame: [UInt8])] = []
        let neighbours = [source] + targets
        for (index, neighbour) in neighbours.enumerated() {
            let fromEngine = engine.handle(.linkUp(LinkInfo(
                id: LinkID(UInt64(index)), role: .central, remoteAddress: "n\(index)", mtu: frameSize)), now: now)
            for case .send(let frame, let link) in fromEngine { queue.append((false, Int(link.number), frame)) }
            let fromNeighbour = neighbour.handle(.linkUp(LinkInfo(
                id: LinkID(0), role: .peripheral, remoteAddress: "engine", mtu: frameSize)), now: now)
            for case .send(let frame, _) in fromNeighbour { queue.append((true, index, frame)) }
        }
        var next = 0
        while next < queue.count {
            let (toEngine, index, frame) = queue[next]
            next += 1
            if toEngine {
                for case .send(let frame, let link) in engine.handle(.frameReceived(LinkID(UInt64(index)), frame), now: now) {
                    queue.append((false, Int(link.number), frame))
                }
            } else {
                for case .send(let frame, _) in neighbours[index].handle(.frameReceived(LinkID(0), frame), now: now) {
                    queue.append((true, index, frame))
                }
            }
        }
        let ready = engine.neighbourSnapshots().filter { $0.links.contains { $0.phase == .ready } }.count
        guard ready == neighbours.count else { throw SetupError.notReady(ready) }
    }

    /// The frames of one new broadcast the source originates at `now` (sealed for its link to
    /// the engine and split at the frame size).
    public func sourceBroadcast(text: String) throws -> [[UInt8]] {
        let (_, actions) = try source.send(text: text, now: now)
        var frames: [[UInt8]] = []
        for case .send(let frame, _) in actions { frames.append(frame) }
        return frames
    }

    /// Hands the engine one frame from the source; returns how many frames it sent.
    @inline(__always)
    public func feed(_ frame: [UInt8]) -> Int {
        var sent = 0
        for case .send in engine.handle(.frameReceived(LinkID(0), frame), now: now) { sent += 1 }
        return sent
    }
}
