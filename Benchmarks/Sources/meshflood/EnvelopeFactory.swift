import MeshCrypto
import MeshProtocol

/// Builds the envelopes M floods with. Message IDs, keys and signatures come from the system's
/// secure random source (through MeshCrypto); only the filler (destinations of direct
/// messages, the bytes of their opaque boxes and of forged signatures) comes from a seeded
/// SplitMix64, so a run's choice of destinations can be repeated. None of it needs secrecy.
struct EnvelopeFactory {
    /// M's own identity.
    let identity: NodeIdentity
    private var filler: SplitMix64
    private var sequence = 0

    /// The payload of a "61 KB" direct message: its envelope (61,145 bytes) pads to 61,440.
    static let bigDirectPayload = 61_000
    /// The payload of a small direct message: the smallest inner box with one 32-byte bucket.
    static let smallDirectPayload = InnerSeal.overhead + 32

    /// Creates a factory; `seed` drives the filler generator.
    init(identity: NodeIdentity, seed: UInt64) {
        self.identity = identity
        filler = SplitMix64(seed: seed)
    }

    /// A correctly signed broadcast by `origin`: M's own (hops 0), or another identity's passed on
    /// by M as its relay (hops 1, route origin then M, so the route fits M); its text is `text`,
    /// else `textLength` x's, else "flood".
    mutating func broadcast(from origin: NodeIdentity? = nil, textLength: Int = 0, text: String? = nil) throws -> Envelope {
        let signer = origin ?? identity
        let route = signer.nodeID == identity.nodeID ? [signer.nodeID] : [signer.nodeID, identity.nodeID]
        var envelope = Envelope(
            kind: .message, messageID: try LinkEnvelopes.messageID(), origin: signer.nodeID, hops: UInt8(route.count - 1),
            route: route, timestamp: WallClock.milliseconds(), payload: chatBody(of: signer, textLength: textLength, text: text))
        try EnvelopeSigner.sign(&envelope, with: signer)
        return envelope
    }

    /// A broadcast under M's identity whose signature is filler bytes: it never verifies.
    mutating func badSignatureBroadcast() throws -> Envelope {
        var envelope = Envelope(
            kind: .message, messageID: try LinkEnvelopes.messageID(), origin: identity.nodeID, route: [identity.nodeID],
            timestamp: WallClock.milliseconds(), payload: chatBody(of: identity, textLength: 0))
        envelope.signature = fillerBytes(Envelope.signatureLength)
        return envelope
    }

    /// A direct message from M to a filler destination, its payload an opaque box of filler
    /// bytes of `payloadSize` (relays check only the shape), signed by M.
    mutating func direct(payloadSize: Int = smallDirectPayload) throws -> Envelope {
        let destination = try NodeID(bytes: fillerBytes(NodeID.byteCount))
        var box = fillerBytes(payloadSize)
        box[0] = 0x04  // looks like the X9.63 ephemeral point a real box starts with
        var envelope = Envelope(
            kind: .message, messageID: try LinkEnvelopes.messageID(), origin: identity.nodeID,
            destination: destination, route: [identity.nodeID], timestamp: WallClock.milliseconds(),
            isInnerSealed: true, payload: box)
        try EnvelopeSigner.sign(&envelope, with: identity)
        return envelope
    }

    /// A correctly signed join notice from a freshly minted identity, passed on by M as its relay
    /// (hops 1, route the new identity then M: the route fits M).
    mutating func freshJoinNotice() throws -> Envelope {
        let fresh = try NodeIdentity.generate()
        sequence += 1
        var notice = try LinkEnvelopes.joinNotice(of: fresh, name: "fresh-\(sequence)")
        notice.hops = 1
        notice.route = [fresh.nodeID, identity.nodeID]
        return notice
    }

    /// A heard broadcast passed on as if M had it straight from its origin (hops 1, route origin
    /// then M): the one replay whose route fits M, so the node under test judges it by the seen
    /// cache and the freshness rule alone.
    func replayedCopy(of envelope: Envelope) -> Envelope {
        var copy = envelope
        copy.hops = 1
        copy.route = [envelope.origin, identity.nodeID]
        return copy
    }

    /// Edit number `index` (taken in turn) of a heard broadcast: hops reset to the origin's, no
    /// route, an invented relay before M, the victim before M or as the last relay, the route
    /// turned round, and the replayed copy that fits M.
    mutating func forgedCopy(of envelope: Envelope, index: Int, victim: NodeID?) throws -> Envelope {
        var copy = envelope
        let origin = envelope.origin, m = identity.nodeID
        let victim = victim ?? origin
        switch index % 7 {
        case 0: (copy.hops, copy.route) = (0, [origin])
        case 1: (copy.hops, copy.route) = (0, [])
        case 2: (copy.hops, copy.route) = (2, [origin, try NodeID(bytes: fillerBytes(NodeID.byteCount)), m])
        case 3: (copy.hops, copy.route) = (2, [origin, victim, m])
        case 4: (copy.hops, copy.route) = (1, [origin, victim])
        case 5: (copy.hops, copy.route) = (1, [m, origin])
        default: copy = replayedCopy(of: envelope)
        }
        return copy
    }

    private func chatBody(of signer: NodeIdentity, textLength: Int, text: String? = nil) -> [UInt8] {
        let text = text ?? (textLength > 0 ? String(repeating: "x", count: min(textLength, ChatBody.maxTextLength)) : "flood")
        return ChatBody(
            signingKey: signer.signingPublicKey.compressed, agreementKey: signer.agreementPublicKey.compressed, text: text
        ).encoded()
    }

    private mutating func fillerBytes(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            var word = filler.next()
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return Array(bytes.prefix(count))
    }
}
