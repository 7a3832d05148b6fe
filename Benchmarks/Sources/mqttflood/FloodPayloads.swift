import Glibc
import MeshCrypto
import MeshProtocol

/// Every topic and payload of one flood, made before it starts (the minted envelopes signed then),
/// so that publishing costs only the network. Shapes are taken in turn from pools of their own.
struct FloodPayloads {
    /// One prepared publication.
    struct Publication {
        /// The full topic name.
        let topic: String
        /// The payload bytes.
        let payload: [UInt8]
    }

    private var pools: [FloodShape: [Publication]] = [:]
    private var next: [FloodShape: Int] = [:]

    /// Prepares the pools for `count` messages of `options.mix`; throws when a replay file cannot
    /// be read or a key cannot be made.
    init(options: MQTTFloodOptions, count: Int) throws {
        var filler = SplitMix64(seed: options.seed)
        let root = "\(options.prefix)/\(options.mesh)"
        let broadcast = "\(root)/broadcast"
        let gateways = (0..<options.gateways).map { _ in try! NodeID(bytes: Self.bytes(NodeID.byteCount, &filler)) }
        let stamp = WallClock.milliseconds()
        let signers = try (0..<options.identities).map { _ in try NodeIdentity.generate() }
        for (shape, _) in options.mix.weights {
            let wanted = max(1, options.mix.count(of: shape, in: count))
            switch shape {
            case .garbage:
                pools[shape] = (0..<min(wanted, 4096)).map { _ in
                    Publication(topic: broadcast, payload: Self.bytes(Int(filler.next() % 256) + 1, &filler))
                }
            case .oversized:
                pools[shape] = [Publication(topic: broadcast, payload: Self.bytes(options.oversizedBytes, &filler))]
            case .badTopic:
                pools[shape] = [Publication(topic: "\(root)/direct/not-a-node-id", payload: [0x78])]
            case .mismatch:
                let envelope = try Self.unsigned(origin: gateways[0], gateway: gateways[0], stamp: stamp, filler: &filler)
                pools[shape] = [Publication(topic: "\(root)/direct/\(gateways[0].hex)", payload: envelope.encoded())]
            case .replay:
                pools[shape] = try options.replay.map { Publication(topic: broadcast, payload: try Self.read($0)) }
            case .forged:
                pools[shape] = try (0..<min(wanted, 200_000)).map { i in
                    let signer = signers[i % signers.count]
                    var envelope = try Self.unsigned(
                        origin: signer.nodeID, gateway: options.claim ?? gateways[i % gateways.count], stamp: stamp,
                        filler: &filler)
                    envelope.payload = Self.chatBody(of: signer, text: "forged \(i)")
                    envelope.signature = Self.bytes(Envelope.signatureLength, &filler)
                    return Publication(topic: broadcast, payload: envelope.encoded())
                }
            case .minted:
                pools[shape] = try (0..<min(wanted, options.maxSigned)).map { i in
                    let signer = signers[i % signers.count]
                    var envelope = try Self.unsigned(
                        origin: signer.nodeID, gateway: gateways[i % gateways.count], stamp: stamp, filler: &filler)
                    envelope.payload = Self.chatBody(of: signer, text: "minted \(i)")
                    try EnvelopeSigner.sign(&envelope, with: signer)
                    return Publication(topic: broadcast, payload: envelope.encoded())
                }
            }
        }
    }

    /// The next publication of `shape`, its pool taken in turn.
    mutating func take(_ shape: FloodShape) -> Publication {
        let pool = pools[shape]!
        let index = next[shape, default: 0]
        next[shape] = (index + 1) % pool.count
        return pool[index]
    }

    /// A broadcast from `origin` published by `gateway` (hops 1, route origin then gateway, so
    /// the route fits the publisher), a fresh message ID, a filler chat body, no signature.
    private static func unsigned(origin: NodeID, gateway: NodeID, stamp: UInt64, filler: inout SplitMix64) throws -> Envelope {
        Envelope(
            kind: .message, messageID: try MessageID(bytes: SecureRandom.bytes(MessageID.byteCount)), origin: origin,
            hops: 1, route: [origin, gateway], timestamp: stamp, payload: bytes(70, &filler))
    }

    private static func chatBody(of signer: NodeIdentity, text: String) -> [UInt8] {
        ChatBody(
            signingKey: signer.signingPublicKey.compressed, agreementKey: signer.agreementPublicKey.compressed, text: text
        ).encoded()
    }

    private static func bytes(_ count: Int, _ filler: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: filler.next()) }
    }

    /// One file's bytes, at most 65,536 + 1 (a replay is one envelope).
    private static func read(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw MQTTFloodError.unreadable(path) }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: Envelope.maxPayloadLength + 1)
        let count = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        guard count > 0 else { throw MQTTFloodError.unreadable(path) }
        return Array(bytes.prefix(count))
    }
}
